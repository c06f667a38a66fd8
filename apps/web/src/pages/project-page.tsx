/**
 * `/project/{projectID}` and everything under it (SPEC §2). The layout loads the project once, sends a
 * missing or inaccessible one back to `/projects`, titles the tab, and opens the viewer by type:
 * review for web, webapp, image and demo; the board and slide editor are not built yet.
 */
import {
  MESSAGES,
  PROJECT_MESSAGES,
  type ProjectDetail,
  projectTabTitle,
  SHARING_MESSAGES,
  SNACKBAR_MS,
  viewerOf,
} from "@redline/shared";
import { RotateCw, TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import { Link, Navigate, Outlet, useNavigate, useOutletContext, useParams } from "react-router";
import { ComingSoon } from "../components/coming-soon.tsx";
import { LoadingView } from "../components/loading-view.tsx";
import { snackbar } from "../components/snackbar-store.ts";
import { AddPagesProvider } from "../features/pages/add-pages-context.tsx";
import { PagesPanel } from "../features/pages/pages-panel.tsx";
import { ProjectBar } from "../features/projects/project-bar.tsx";
import { useProject } from "../features/projects/project-queries.ts";
import { PagePreview } from "../features/viewer/page-preview.tsx";
import { REVIEW_VIEWS, type ReviewMode, ReviewView } from "../features/viewer/review-view.tsx";
import { isApiError } from "../lib/api.ts";
import { errorMessage } from "../lib/auth-client.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import "../features/projects/projects.css";
import "../features/viewer/viewer.css";

function isNotFound(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.status === 403);
}

export function ProjectLayout() {
  const { projectId = "" } = useParams();
  const navigate = useNavigate();
  const { data: project, isPending, isError, error, refetch, isFetching } = useProject(projectId);
  useDocumentTitle(project ? projectTabTitle(project.title) : "Project");

  useEffect(() => {
    if (!isNotFound(error)) return;
    // A project that exists but is not shared with this user gets its own message (SPEC §4, §8), for 5 s.
    if (isApiError(error) && error.code === "project-not-accessible") {
      snackbar.error(SHARING_MESSAGES.notAccessible, SNACKBAR_MS.default);
    } else {
      snackbar.error(MESSAGES.projectNotFound);
    }
    navigate("/projects", { replace: true });
  }, [error, navigate]);

  if (isPending || isNotFound(error)) return <LoadingView />;
  if (isError)
    return (
      <div className="status-view" role="alert">
        <TriangleAlert size={32} aria-hidden className="status-view__icon" />
        <h1 className="status-view__title">The project could not be loaded</h1>
        <p className="status-view__text">{errorMessage(error)}</p>
        <div className="status-view__actions">
          <button type="button" className="btn btn--primary" onClick={() => refetch()} disabled={isFetching}>
            <RotateCw size={16} aria-hidden /> Try again
          </button>
          <Link className="btn" to="/projects">
            All projects
          </Link>
        </div>
      </div>
    );

  const viewer = viewerOf(project.type);
  if (viewer === "board")
    return (
      <ComingSoon title={project.title} tabTitle={projectTabTitle(project.title)}>
        The bug-tracking board, with lists and tickets, is coming soon.
      </ComingSoon>
    );
  if (viewer === "slides")
    return (
      <ComingSoon title={project.title} tabTitle={projectTabTitle(project.title)}>
        The slide editor for illustration projects is coming soon.
      </ComingSoon>
    );

  return (
    <AddPagesProvider key={project.id} project={project}>
      <Outlet context={project} />
    </AddPagesProvider>
  );
}

function useProjectContext(): ProjectDetail {
  return useOutletContext<ProjectDetail>();
}

/** `/project/{p}` and `/project/{p}/{page}`: the pages panel and the chosen page. */
export function ProjectHomePage() {
  const project = useProjectContext();
  const { pageId } = useParams();
  const page = pageId ? project.pages.find((entry) => entry.id === pageId) : project.pages[0];
  return (
    <div className="project-home">
      <ProjectBar project={project} />
      <div className="project-home__body">
        <PagesPanel project={project} selectedPageId={page?.id} />
        <div className="project-home__main">
          {page ? (
            <PagePreview key={page.id} project={project} page={page} />
          ) : (
            <div className="empty-state project-home__empty">
              <h2 className="empty-state__title">{pageId ? "Page does not exist." : "No pages yet"}</h2>
              <p className="empty-state__text">
                {pageId
                  ? "It may have been deleted. Choose another page from the list."
                  : project.abilities.addPages
                    ? "Add a page by its address, or upload an image or PDF, to start the review."
                    : "Pages added to this project will show here."}
              </p>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

/** `/project/{p}/{page}/{version}/{currentView}`. */
export function ReviewPage() {
  const project = useProjectContext();
  const { pageId, versionId = "", currentView = "" } = useParams();
  const page = project.pages.find((entry) => entry.id === pageId);
  if (!REVIEW_VIEWS.includes(currentView as ReviewMode))
    return <Navigate to={`/project/${project.id}/${pageId}/${versionId}/comment`} replace />;
  if (!page)
    return (
      <div className="status-view" role="alert">
        <h1 className="status-view__title">{PROJECT_MESSAGES.pageDoesNotExist}</h1>
        <div className="status-view__actions">
          <Link className="btn" to={`/project/${project.id}`}>
            Back to the project
          </Link>
        </div>
      </div>
    );
  return <ReviewView project={project} page={page} versionId={versionId} mode={currentView as ReviewMode} />;
}

/** `/project/{p}/archived`. */
export function ProjectArchivedPage() {
  const project = useProjectContext();
  return (
    <ComingSoon title="Archived items" tabTitle={projectTabTitle(project.title)}>
      Pages and versions archived in “{project.title}” will be listed here.
    </ComingSoon>
  );
}
