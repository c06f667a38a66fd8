/**
 * Help → What's New (SPEC §2 help menu, §1 tour 'see new updates in What's New'): the releases in the
 * repository's CHANGELOG.md, bundled at build time, so what the app says is what shipped with it.
 */
import { marked } from "marked";
import { useMemo } from "react";
import changelog from "../../../../../CHANGELOG.md?raw";
import { Modal } from "../../components/modal.tsx";
import { parseChangelog } from "./changelog.ts";
import "./feedback.css";

const dateFormat = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "long", day: "numeric" });

/** An item's inline markdown (code, emphasis, links) as HTML; the text is ours, from the repository. */
const inline = (text: string) => ({ __html: marked.parseInline(text, { async: false }) });

export function WhatsNewDialog({
  open,
  onOpenChange,
  source = changelog,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The changelog's text (tests pass their own). */
  source?: string;
}) {
  const releases = useMemo(() => parseChangelog(source), [source]);
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="What's New">
      {releases.length === 0 ? (
        <p className="modal__description">No releases yet.</p>
      ) : (
        <ol className="whats-new" aria-label="Releases">
          {releases.map((release) => (
            <li key={release.version} className="whats-new__release">
              <h3>
                {release.version}
                {release.date ? (
                  <time className="whats-new__date" dateTime={release.date}>
                    {dateFormat.format(new Date(`${release.date}T00:00:00`))}
                  </time>
                ) : null}
              </h3>
              {release.sections.map((section) => (
                <div key={section.title} className="whats-new__section">
                  <h4>{section.title}</h4>
                  <ul>
                    {section.items.map((item) => (
                      // biome-ignore lint/security/noDangerouslySetInnerHtml: the repository's own changelog
                      <li key={item} dangerouslySetInnerHTML={inline(item)} />
                    ))}
                  </ul>
                </div>
              ))}
            </li>
          ))}
        </ol>
      )}
    </Modal>
  );
}
