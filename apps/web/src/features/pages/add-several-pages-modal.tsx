/**
 * "Add several pages from the same URL by entering the URL and using the dropdown" (SPEC §1): the site
 * address and a list of paths; they are added one after the other.
 */
import { type FormEvent, useId, useRef, useState } from "react";
import { Modal } from "../../components/modal.tsx";
import { urlsFromPaths } from "./page-urls.ts";

export function AddSeveralPagesModal({
  open,
  onOpenChange,
  initialBase,
  onAdd,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  initialBase: string;
  onAdd(urls: string[], isScreenshot: boolean): void;
}) {
  const id = useId();
  const pathsInput = useRef<HTMLTextAreaElement>(null);
  const [base, setBase] = useState(initialBase);
  const [paths, setPaths] = useState("");
  const [isScreenshot, setScreenshot] = useState(false);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setBase(initialBase);
  }
  const urls = urlsFromPaths(base, paths);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (urls.length === 0) return;
    onAdd(urls, isScreenshot);
    setPaths("");
    onOpenChange(false);
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Add several pages"
      description="Enter the site's address and the paths of its pages, one per line. They are captured one after the other."
      initialFocusRef={initialBase ? pathsInput : undefined}
      footer={
        <>
          <button type="button" className="btn" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button type="submit" form={`${id}-form`} className="btn btn--primary" disabled={urls.length === 0}>
            {urls.length === 1 ? "Add 1 page" : `Add ${urls.length} pages`}
          </button>
        </>
      }
    >
      <form id={`${id}-form`} className="add-several" onSubmit={handleSubmit}>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-base`}>
            Site address
          </label>
          <input
            id={`${id}-base`}
            className="input"
            inputMode="url"
            placeholder="https://example.com"
            value={base}
            onChange={(event) => setBase(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-paths`}>
            Paths, one per line
          </label>
          <textarea
            ref={pathsInput}
            id={`${id}-paths`}
            className="input add-several__paths"
            rows={5}
            placeholder={"/\n/pricing\n/about"}
            value={paths}
            onChange={(event) => setPaths(event.target.value)}
          />
        </div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={isScreenshot}
            onChange={(event) => setScreenshot(event.target.checked)}
          />
          Full-page screenshot
        </label>
        {urls.length > 0 ? (
          <ul className="add-several__preview" aria-label="Pages to add">
            {urls.map((url) => (
              <li key={url}>{url}</li>
            ))}
          </ul>
        ) : null}
      </form>
    </Modal>
  );
}
