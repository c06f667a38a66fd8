/**
 * The add-page form (SPEC §5): shown only to those who may add pages; the upgrade prompt instead once
 * the project is full. A URL (with 'Full-page screenshot' as an option, several pages through the
 * dropdown) or an uploaded image or PDF.
 */
import { ChevronDown, ListPlus, Upload } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { type ChangeEvent, type FormEvent, useId, useState } from "react";
import { Link } from "react-router";
import { CaptureProgress } from "../../components/capture-progress.tsx";
import { AddressField } from "../../components/field.tsx";
import { IMAGE_AND_PDF_TYPES } from "../../lib/files.ts";
import { useAddPages } from "./add-pages-context.tsx";
import { AddSeveralPagesModal } from "./add-several-pages-modal.tsx";
import { pageLimitText } from "./page-limit.ts";
import { normalizeUrl } from "./page-urls.ts";
import { ScreenshotCheckbox } from "./screenshot-checkbox.tsx";

export function AddPageForm() {
  const id = useId();
  const { job, limit, remaining, isAtLimit, addUrls, upload } = useAddPages();
  const [url, setUrl] = useState("");
  const [isScreenshot, setScreenshot] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isSeveralOpen, setSeveralOpen] = useState(false);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const normalized = normalizeUrl(url);
    if (!normalized) {
      setError("Enter a web address starting with http:// or https://");
      return;
    }
    setError(null);
    setUrl("");
    addUrls([normalized], isScreenshot);
  };

  const handleFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file) upload(file);
  };

  if (job)
    return (
      <section className="add-page" aria-label="Adding pages">
        <CaptureProgress
          label={job.total > 1 ? `Adding page ${job.index} of ${job.total}` : "Adding page"}
          status={job.status}
          stage={job.stage}
          detail={job.label}
        />
      </section>
    );

  if (isAtLimit)
    return (
      <section className="add-page add-page--limit" aria-labelledby={`${id}-limit`}>
        <p id={`${id}-limit`} className="add-page__limit-title">
          {pageLimitText(limit)}
        </p>
        <p className="add-page__limit-text">Upgrade to add more pages, images and PDFs.</p>
        <Link className="btn btn--primary" to="/upgrade">
          Upgrade
        </Link>
      </section>
    );

  const typed = normalizeUrl(url);
  // The site's root reads best as its origin; any other page is where the picker looks for links.
  const base =
    typed && new URL(typed).pathname === "/" && !new URL(typed).search ? new URL(typed).origin : typed;
  return (
    <section className="add-page" aria-label="Add pages">
      <form className="add-page__form" onSubmit={handleSubmit} noValidate>
        <AddressField
          label="Page URL"
          type="url"
          placeholder="https://example.com/pricing"
          value={url}
          error={error ?? undefined}
          onValue={setUrl}
        />
        <div className="add-page__row">
          <ScreenshotCheckbox checked={isScreenshot} onChange={setScreenshot} />
          <div className="add-page__split">
            <button type="submit" className="btn btn--primary add-page__submit" disabled={!url.trim()}>
              Add page
            </button>
            <DropdownMenu.Root>
              <DropdownMenu.Trigger
                className="btn btn--primary add-page__more"
                aria-label="More ways to add pages"
              >
                <ChevronDown size={16} aria-hidden />
              </DropdownMenu.Trigger>
              <DropdownMenu.Portal>
                <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
                  <DropdownMenu.Item className="menu__item" onSelect={() => setSeveralOpen(true)}>
                    <ListPlus size={16} aria-hidden /> Add several pages from this site
                  </DropdownMenu.Item>
                </DropdownMenu.Content>
              </DropdownMenu.Portal>
            </DropdownMenu.Root>
          </div>
        </div>
      </form>
      <div className="add-page__or" aria-hidden>
        or
      </div>
      <input
        id={`${id}-file`}
        className="visually-hidden file-input"
        type="file"
        accept={IMAGE_AND_PDF_TYPES}
        onChange={handleFile}
      />
      <label className="btn add-page__upload" htmlFor={`${id}-file`}>
        <Upload size={16} aria-hidden /> Upload image or PDF
      </label>
      <p className="field__hint">JPEG, PNG, WebP, GIF or PDF, up to 5 MB.</p>
      <AddSeveralPagesModal
        open={isSeveralOpen}
        onOpenChange={setSeveralOpen}
        initialBase={base ?? ""}
        remaining={remaining}
        onAdd={addUrls}
      />
    </section>
  );
}
