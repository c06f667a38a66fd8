/**
 * The owner's review link (`/request-review?project={id}`): anyone who opens it may ask the owner for a
 * review of a URL, which arrives as a notification and a mail (modules/review-requests on the server). The
 * hint speaks of what the project holds: pages, or slides on an illustration project's deck.
 */
import { type ProjectSummary, reviewRequestPath, viewerOf } from "@redline/shared";
import { CopyField } from "./copy-field.tsx";

export function ReviewLink({ project }: { project: ProjectSummary }) {
  if (project.access !== "owner") return null;
  return (
    <section className="share-section" aria-labelledby="share-review-title">
      <div className="share-section__head">
        <h3 id="share-review-title" className="share-section__title">
          Review requests
        </h3>
      </div>
      <p className="field__hint">
        {viewerOf(project.type) === "slides"
          ? "Share this link with clients: they can send you a link to slides or a design they want reviewed, and you get it as a notification and an e-mail."
          : "Share this link with clients: they can ask you to review a page, and you get it as a notification and an e-mail."}
      </p>
      <CopyField
        label="Review request link"
        value={`${window.location.origin}${reviewRequestPath(project.id)}`}
      />
    </section>
  );
}
