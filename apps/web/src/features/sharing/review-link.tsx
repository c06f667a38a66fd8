/**
 * The owner's review link (`/request-review?project={id}`): anyone who opens it may ask the owner for a
 * review of a URL, which arrives as a notification and a mail (modules/review-requests on the server).
 */
import { type ProjectSummary, reviewRequestPath } from "@redline/shared";
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
        Share this link with clients: they can ask you to review a page, and you get it as a notification and
        an e-mail.
      </p>
      <CopyField
        label="Review request link"
        value={`${window.location.origin}${reviewRequestPath(project.id)}`}
      />
    </section>
  );
}
