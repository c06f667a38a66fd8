/**
 * Pages as cards, at the width the card-size control chose: the project's pages ("All pages") and its
 * archived pages share the card; only the action differs (archive or unarchive).
 */
import type { Page, ProjectDetail } from "@redline/shared";
import { Archive, ArchiveRestore, FileText, Globe, Image as ImageIcon } from "lucide-react";
import type { CSSProperties, ReactNode } from "react";
import { Link } from "react-router";
import { ApprovedBadge } from "../../components/approved-badge.tsx";
import { CardThumb } from "../../components/card.tsx";
import { VersionStatusTag } from "../../components/version-status-tag.tsx";
import { CardSizeControl, useCardSize } from "./card-size.tsx";
import { isUploadPage, pageSource, versionsLabel } from "./page-labels.ts";
import { useSetPageArchived } from "./page-queries.ts";
import "./pages.css";

export function PageGridSection({
  project,
  pages,
  title,
  description,
  empty,
}: {
  project: ProjectDetail;
  pages: Page[];
  title: string;
  description: string;
  empty: ReactNode;
}) {
  const { size, width, setSize } = useCardSize();
  return (
    <section className="page-grid-section" aria-labelledby="page-grid-title">
      <div className="page-grid-section__head">
        <div>
          <h2 id="page-grid-title" className="page-grid-section__title">
            {title}
          </h2>
          <p className="page-grid-section__text">{description}</p>
        </div>
        {pages.length > 0 ? <CardSizeControl size={size} width={width} onChange={setSize} /> : null}
      </div>
      {pages.length === 0 ? (
        empty
      ) : (
        <ul
          className="page-grid"
          aria-label={title}
          style={{ "--page-card-width": `${width}px` } as CSSProperties}
        >
          {pages.map((page) => (
            <PageCard key={page.id} project={project} page={page} />
          ))}
        </ul>
      )}
    </section>
  );
}

function PageCard({ project, page }: { project: ProjectDetail; page: Page }) {
  const setArchived = useSetPageArchived();
  const href = `/project/${project.id}/${page.id}`;
  const latest = page.versions.at(-1);
  const Icon = isUploadPage(page) ? (page.isPDF ? FileText : ImageIcon) : Globe;
  const noun = isUploadPage(page) ? "file" : "page";
  return (
    <li className="card page-card">
      <CardThumb to={href} src={page.thumbnail} icon={Icon} />
      <div className="page-card__body">
        <h3 className="page-card__title">
          <Link to={href} className="page-card__title-link">
            {page.title}
          </Link>
        </h3>
        <p className="page-card__source">{pageSource(page)}</p>
        <p className="page-card__meta">
          {versionsLabel(page.numberOfVersions)}
          <VersionStatusTag version={latest} />
          <ApprovedBadge page={page} />
        </p>
        <div className="page-card__actions">
          <Link to={href} className="btn btn--ghost page-card__action">
            Open<span className="visually-hidden"> {page.title}</span>
          </Link>
          {project.abilities.updatePages ? (
            <button
              type="button"
              className="btn btn--ghost page-card__action"
              disabled={setArchived.isPending}
              onClick={() => setArchived.mutate({ page, isArchived: !page.isArchived })}
            >
              {page.isArchived ? (
                <>
                  <ArchiveRestore size={16} aria-hidden /> Unarchive
                </>
              ) : (
                <>
                  <Archive size={16} aria-hidden /> Archive
                </>
              )}
              <span className="visually-hidden">
                {" "}
                {noun} {page.title}
              </span>
            </button>
          ) : null}
        </div>
      </div>
    </li>
  );
}
