/**
 * "Add several pages from the same URL by entering the URL and using the dropdown" (SPEC §1): the
 * address typed in the form, the pages it links to on the same site as checkboxes (the similar-pages
 * picker, shown only when matches exist), and paths typed by hand. No more than the project's owner
 * may still add (the page limit); they are added one after the other.
 */
import { LoaderCircle } from "lucide-react";
import { useRef, useState } from "react";
import { AddressField, TextAreaField } from "../../components/field.tsx";
import { FormModal } from "../../components/form-modal.tsx";
import { errorMessage } from "../../lib/auth-client.ts";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";
import { useSimilarPages } from "./page-queries.ts";
import { normalizeUrl, urlsFromPaths } from "./page-urls.ts";
import { ScreenshotCheckbox } from "./screenshot-checkbox.tsx";

function pagesText(count: number): string {
  return count === 1 ? "1 page" : `${count} pages`;
}

/** The link as the picker shows it: its path on the site. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

export function AddSeveralPagesModal({
  open,
  onOpenChange,
  initialBase,
  remaining,
  onAdd,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  initialBase: string;
  /** How many more pages fit; null: no limit. */
  remaining: number | null;
  onAdd(urls: string[], isScreenshot: boolean): void;
}) {
  const pathsInput = useRef<HTMLTextAreaElement>(null);
  const [base, setBase] = useState(initialBase);
  const [paths, setPaths] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const [isScreenshot, setScreenshot] = useState(false);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setBase(initialBase);
      setPicked([]);
    }
  }
  const lookup = normalizeUrl(useDebouncedValue(base, 400));
  const similar = useSimilarPages(open ? lookup : null);
  const found = similar.data?.pages ?? [];
  const chosen = picked.filter((url) => found.includes(url));
  const urls = [...new Set([...chosen, ...urlsFromPaths(base, paths)])];
  const isOverLimit = remaining !== null && urls.length > remaining;
  const canPickMore = remaining === null || urls.length < remaining;

  const togglePicked = (url: string, checked: boolean) =>
    setPicked((current) => (checked ? [...current, url] : current.filter((entry) => entry !== url)));

  const handleSubmit = () => {
    onAdd(urls, isScreenshot);
    setPaths("");
    setPicked([]);
    onOpenChange(false);
  };

  return (
    <FormModal
      open={open}
      onOpenChange={onOpenChange}
      title="Add several pages"
      description="Enter the site's address: the pages it links to are offered below. Or type their paths, one per line. They are captured one after the other."
      initialFocusRef={initialBase ? pathsInput : undefined}
      submitLabel={`Add ${pagesText(urls.length)}`}
      canSubmit={urls.length > 0 && !isOverLimit}
      formClassName="add-several"
      onSubmit={handleSubmit}
    >
      <AddressField
        label="Site address"
        placeholder="https://example.com"
        value={base}
        onValue={setBase}
        after={
          similar.isFetching && !similar.data ? (
            <p className="field__hint add-several__status" role="status">
              <LoaderCircle size={12} className="spin" aria-hidden /> Looking for pages linked from this
              address...
            </p>
          ) : similar.isError ? (
            <p className="field__hint">No pages could be found there: {errorMessage(similar.error)}</p>
          ) : similar.data && found.length === 0 ? (
            <p className="field__hint">This address links to no other pages of the site.</p>
          ) : null
        }
      />
      {found.length > 0 ? (
        <fieldset className="similar-pages">
          <legend className="field__label">Pages found on this site</legend>
          <p className="field__hint">
            {remaining === null
              ? "Choose the pages to add."
              : `Choose up to ${pagesText(remaining)}: the project's page limit allows no more.`}
          </p>
          <ul className="similar-pages__list">
            {found.map((url) => {
              const isChecked = chosen.includes(url);
              return (
                <li key={url}>
                  <label className="checkbox similar-pages__item" title={url}>
                    <input
                      type="checkbox"
                      checked={isChecked}
                      disabled={!isChecked && !canPickMore}
                      onChange={(event) => togglePicked(url, event.target.checked)}
                    />
                    <span className="similar-pages__path">{pathOf(url)}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
      ) : null}
      <TextAreaField
        label="Paths, one per line"
        textAreaRef={pathsInput}
        inputClassName="add-several__paths"
        rows={found.length > 0 ? 3 : 5}
        placeholder={"/\n/pricing\n/about"}
        value={paths}
        onChange={(event) => setPaths(event.target.value)}
      />
      <ScreenshotCheckbox checked={isScreenshot} onChange={setScreenshot} />
      {isOverLimit ? (
        <p className="form-error" role="alert">
          Only {pagesText(remaining ?? 0)} more fit in this project. Remove some to go on.
        </p>
      ) : urls.length > 0 ? (
        <ul className="add-several__preview" aria-label="Pages to add">
          {urls.map((url) => (
            <li key={url}>{url}</li>
          ))}
        </ul>
      ) : null}
    </FormModal>
  );
}
