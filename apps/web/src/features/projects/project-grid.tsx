/** The cards of one list, with its loading, empty and error states. */
import { PRODUCT_TEXTS, type ProjectList, type ProjectSummary } from "@redline/shared";
import { FolderOpen, RotateCw, SearchX, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { errorMessage } from "../../lib/auth-client.ts";
import { ProjectCard } from "./project-card.tsx";
import { type ProjectsQuery, useProjects } from "./project-queries.ts";

const EMPTY_TEXT: Record<ProjectList, { title: string; text: string }> = {
  // The tab's product's words (PRODUCT_TEXTS) replace this text on the list of all projects.
  all: { title: "No projects yet", text: PRODUCT_TEXTS.web.noProjects },
  web: { title: "No web projects yet", text: "Website, web app and image projects show up here." },
  illustration: { title: "No illustration projects yet", text: "Illustration projects show up here." },
  archived: { title: "No archived projects", text: "Projects you archive are kept here, out of the way." },
};

export function ProjectGrid({
  query,
  onCreate,
  renderShare,
}: {
  query: ProjectsQuery;
  onCreate(): void;
  /** Each card's share button, supplied by the page (the sharing feature's). */
  renderShare?: (project: ProjectSummary) => ReactNode;
}) {
  const { data: projects, isPending, isError, error, refetch, isFetching } = useProjects(query);

  if (isPending)
    return (
      <ul className="project-grid" aria-busy="true" aria-label="Loading projects">
        {[0, 1, 2, 3].map((key) => (
          <li key={key} className="card project-card project-card--skeleton" aria-hidden />
        ))}
      </ul>
    );

  if (isError)
    return (
      <div className="empty-state" role="alert">
        <TriangleAlert size={28} aria-hidden className="empty-state__icon" />
        <h2 className="empty-state__title">Projects could not be loaded</h2>
        <p className="empty-state__text">{errorMessage(error)}</p>
        <button type="button" className="btn" onClick={() => refetch()} disabled={isFetching}>
          <RotateCw size={16} aria-hidden /> Try again
        </button>
      </div>
    );

  if (projects.length === 0) {
    if (query.q)
      return (
        <div className="empty-state">
          <SearchX size={28} aria-hidden className="empty-state__icon" />
          <h2 className="empty-state__title">No projects match “{query.q}”</h2>
          <p className="empty-state__text">Try another name, or clear the filter.</p>
        </div>
      );
    const empty =
      query.list === "all"
        ? { ...EMPTY_TEXT.all, text: PRODUCT_TEXTS[query.product ?? "web"].noProjects }
        : EMPTY_TEXT[query.list];
    return (
      <div className="empty-state">
        <FolderOpen size={28} aria-hidden className="empty-state__icon" />
        <h2 className="empty-state__title">{empty.title}</h2>
        <p className="empty-state__text">{empty.text}</p>
        {query.list === "archived" ? null : (
          <button type="button" className="btn btn--primary" onClick={onCreate}>
            New project
          </button>
        )}
      </div>
    );
  }

  return (
    <ul className="project-grid" aria-label="Projects">
      {projects.map((project) => (
        <ProjectCard key={project.id} project={project} share={renderShare?.(project)} />
      ))}
    </ul>
  );
}
