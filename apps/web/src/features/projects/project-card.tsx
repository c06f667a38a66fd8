/**
 * One project in the lists: thumbnail (or a neutral placeholder), the share button in its top right
 * corner, the title (click to rename), access, expiry and Free Plan labels, and the project menu.
 */
import { accessLabel, freePlanTag, type ProjectSummary, teamDisplayName, viewerOf } from "@redline/shared";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { CardThumb } from "../../components/card.tsx";
import { InlineEdit } from "../../components/inline-edit.tsx";
import { projectExpiryLabel } from "./project-expiry.ts";
import { ProjectMenu } from "./project-menu.tsx";
import { useUpdateProject } from "./project-queries.ts";
import { PROJECT_TYPE_INFO } from "./project-types.ts";

function pagesLabel(count: number): string {
  return count === 1 ? "1 page" : `${count} pages`;
}

/** `share`: the card's share button (the sharing feature's), supplied by the page. */
export function ProjectCard({ project, share }: { project: ProjectSummary; share?: ReactNode }) {
  const update = useUpdateProject();
  const info = PROJECT_TYPE_INFO[project.type];
  const Icon = info.icon;
  const href = `/project/${project.id}`;
  const expiry = projectExpiryLabel(project);
  // A bug-tracking project holds tickets, not pages: its card says neither a page count nor a page limit.
  const holdsPages = viewerOf(project.type) !== "board";
  const planTag = holdsPages ? freePlanTag(project.pageCount, project.pageLimit) : null;

  return (
    <li className="card project-card">
      {share}
      <CardThumb to={href} src={project.thumbnail} icon={Icon} />
      <div className="project-card__body">
        <div className="project-card__title-row">
          <h2 className="project-card__title">
            {project.abilities.update ? (
              <InlineEdit
                value={project.title}
                label="Rename project"
                allowEmpty
                onSave={(title) => update.mutate({ id: project.id, title })}
              />
            ) : (
              <Link to={href} className="project-card__title-link">
                {project.title}
              </Link>
            )}
          </h2>
          <ProjectMenu project={project} />
        </div>
        <p className="project-card__meta">
          {holdsPages ? `${info.label} · ${pagesLabel(project.pageCount)}` : info.label}
        </p>
        <div className="project-card__tags">
          <span className="tag">{accessLabel(project.access)}</span>
          {project.team ? (
            <span className="tag tag--accent" title="Every member of the team can edit it">
              Team: {teamDisplayName(project.team)}
            </span>
          ) : null}
          {expiry ? (
            <span className={expiry === "Expired" ? "tag tag--danger" : "tag tag--warning"}>{expiry}</span>
          ) : null}
          {planTag ? (
            <span className={planTag === "Limit reached" ? "tag tag--warning" : "tag"}>{planTag}</span>
          ) : null}
        </div>
        <Link to={href} className="btn btn--ghost project-card__open">
          Open<span className="visually-hidden"> {project.title}</span>
        </Link>
      </div>
    </li>
  );
}
