/**
 * The page view (`/project/{p}` and `/project/{p}/{page}`): the chosen page (the first by default) with
 * its latest version, and the way into its review.
 */
import type { Page, ProjectDetail } from "@redline/shared";
import { ExternalLink, MessageSquare } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { ApprovedBadge } from "../components/approved-badge.tsx";
import { InlineEdit } from "../components/inline-edit.tsx";
import { VersionContent } from "../components/stage/version-content.tsx";
import { VersionStatusTag } from "../components/version-status-tag.tsx";
import { isUploadPage, pageSource, versionsLabel } from "../features/pages/page-labels.ts";
import { useRenamePage } from "../features/pages/page-queries.ts";
import { useRecapture, useVersionView } from "../features/viewer/version-queries.ts";
import "../features/viewer/page-preview.css";
import "../features/viewer/viewer.css";

export function PagePreview({ project, page }: { project: ProjectDetail; page: Page }) {
  const navigate = useNavigate();
  const rename = useRenamePage();
  const recapture = useRecapture();
  const latest = page.versions.at(-1);
  const latestView = useVersionView(latest?.id ?? "", undefined, latest !== undefined);
  const canEdit = project.abilities.updatePages;
  const reviewHref = latest ? `/project/${project.id}/${page.id}/${latest.id}/comment` : null;

  return (
    <section className="page-preview" aria-labelledby="page-preview-title">
      <div className="page-preview__head">
        <div className="page-preview__titles">
          <h2 id="page-preview-title" className="page-preview__title">
            <InlineEdit
              value={page.title}
              label="Rename page"
              onSave={canEdit ? (title) => rename.mutate({ pageId: page.id, title }) : undefined}
            />
          </h2>
          <p className="page-preview__meta">
            {isUploadPage(page) ? (
              <span>{pageSource(page)}</span>
            ) : (
              <a className="link page-preview__url" href={page.url} target="_blank" rel="noopener noreferrer">
                {page.url}
                <ExternalLink size={12} aria-hidden />
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            )}
            <span aria-hidden>·</span>
            <span>{versionsLabel(page.numberOfVersions)}</span>
            <VersionStatusTag version={latest} />
            <ApprovedBadge page={page} />
          </p>
        </div>
        {reviewHref ? (
          <Link className="btn btn--primary" to={reviewHref}>
            <MessageSquare size={16} aria-hidden /> Open review
          </Link>
        ) : null}
      </div>
      <div className="page-preview__stage">
        {latest ? (
          <VersionContent
            key={latest.id}
            view={latestView}
            width={1280}
            onRetry={
              canEdit && !isUploadPage(page)
                ? () =>
                    recapture.mutate(page.id, {
                      onSuccess: ({ data }) =>
                        navigate(`/project/${project.id}/${page.id}/${data.id}/comment`),
                    })
                : undefined
            }
            isRetrying={recapture.isPending}
          />
        ) : null}
      </div>
    </section>
  );
}
