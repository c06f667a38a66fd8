/**
 * `/project/{projectId}` and everything under it (SPEC §2). The layout loads the project once, sends a
 * missing or inaccessible one back to `/projects`, titles the tab, and opens the viewer by type:
 * review for web, webapp, image and demo; the bug-tracking board for browse and mobile (`?t={ticketId}`
 * opens a ticket); the slide editor for illustration (features/slides).
 */
import {
  loadingText,
  MESSAGES,
  type Page,
  PROJECT_MESSAGES,
  type ProjectDetail,
  productOf,
  projectTabTitle,
  SHARING_MESSAGES,
  SNACKBAR_MS,
  viewerOf,
} from "@redline/shared";
import { Archive, ArchiveRestore, FolderArchive, LayoutGrid, RotateCw, TriangleAlert } from "lucide-react";
import { type ComponentProps, Suspense, useEffect } from "react";
import {
  Link,
  Navigate,
  Outlet,
  useLocation,
  useNavigate,
  useOutletContext,
  useParams,
  useSearchParams,
} from "react-router";
import { LoadingView } from "../components/loading-view.tsx";
import { snackbar } from "../components/snackbar-store.ts";
import { usePrefetchComments } from "../features/comments/comment-queries.ts";
import { useMentionPeople } from "../features/comments/use-mention-people.ts";
import { ExtensionPromo, ExtensionToggle } from "../features/extension/extension-promo.tsx";
import { IntegrationsButton } from "../features/integrations/integrations-panel.tsx";
import { AddPagesProvider } from "../features/pages/add-pages-context.tsx";
import { PageGridSection } from "../features/pages/page-grid.tsx";
import { useSetPageArchived } from "../features/pages/page-queries.ts";
import { PagesPanel, type PagesView } from "../features/pages/pages-panel.tsx";
import { useVersionsRealtime } from "../features/pages/use-versions-realtime.ts";
import { ExpiredNotice } from "../features/projects/expired-notice.tsx";
import { isJustCreated } from "../features/projects/just-created.ts";
import { ProjectBar } from "../features/projects/project-bar.tsx";
import { useProject } from "../features/projects/project-queries.ts";
import type { SlideCommentsPanelProps } from "../features/slides/slide-comments-slot.ts";
import { InstallWidgetButton } from "../features/widget/install-widget.tsx";
import { isApiError } from "../lib/api.ts";
import { errorMessage } from "../lib/auth-client.ts";
import { chooseProduct } from "../lib/product.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import { BoardPage } from "./board-page.tsx";
import { SlideCommentsPanel, SlideEditor } from "./lazy-slides.tsx";
import { PagePreview } from "./page-preview.tsx";
import { REVIEW_VIEWS, type ReviewMode, ReviewView } from "./review-view.tsx";
import "../features/projects/projects.css";
import "../features/viewer/viewer.css";
import { ShareButton } from "../features/sharing/share-modal.tsx";

/** A member's panel of a slide's comments: the project's people may be mentioned. */
function MemberSlideComments({ project, ...props }: SlideCommentsPanelProps & { project: ProjectDetail }) {
  const people = useMentionPeople(project);
  return <SlideCommentsPanel {...props} people={people} />;
}

function isNotFound(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.status === 403);
}

export function ProjectLayout() {
  const { projectId = "", versionId, currentView } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { data: project, isPending, isError, error, refetch, isFetching } = useProject(projectId);
  // A review in comment mode needs the version's comments too: asked for beside the project, not after it.
  usePrefetchComments(projectId, currentView === "comment" ? versionId : undefined);
  // Captures report their progress here, for every view under the project.
  useVersionsRealtime(projectId, Boolean(project));
  useDocumentTitle(project ? projectTabTitle(project.title) : "Project");

  // Opening a project shows its product (SPEC §1): the header, plans and lists follow it from here.
  const product = project ? productOf(project.type) : null;
  useEffect(() => {
    if (product) chooseProduct(product);
  }, [product]);

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

  // A project just made says it is being built (SPEC §2 loading views); any other opening, the default.
  if (isPending || isNotFound(error))
    return <LoadingView text={loadingText({ isBuilding: isJustCreated(location.state) })} />;
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
  // The board is the whole project view (the page's own bar and expired notice included).
  if (viewer === "board")
    return (
      <BoardPage
        project={project}
        toolbar={
          <>
            <IntegrationsButton projectId={project.id} canManage={project.abilities.update} />
            <InstallWidgetButton projectId={project.id} canManage={project.abilities.update} />
          </>
        }
      />
    );
  if (viewer === "slides")
    return (
      <Suspense fallback={<LoadingView text="Loading slides…" />}>
        <SlideEditor
          key={project.id}
          project={{ id: project.id, title: project.title, canComment: project.abilities.comment }}
          bar={<ProjectBar project={project} share={<ShareButton project={project} variant="bar" />} />}
          commentsPanel={(props) => <MemberSlideComments project={project} {...props} />}
        />
      </Suspense>
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

/**
 * `/project/{p}` and `/project/{p}/{page}`: the pages panel and the chosen page (the first one not
 * archived by default); `/project/{p}?view=grid` shows every page that is not archived as cards.
 */
export function ProjectHomePage() {
  const project = useProjectContext();
  const { pageId } = useParams();
  const [searchParams] = useSearchParams();
  if (!pageId && searchParams.get("view") === "grid") return <ProjectGridPage project={project} />;
  const page = pageId
    ? project.pages.find((entry) => entry.id === pageId)
    : project.pages.find((entry) => !entry.isArchived);
  return (
    <div className="screen project-home">
      <ProjectBar
        project={project}
        share={
          <>
            <ExtensionPromo project={project} />
            <ExtensionToggle project={project} />
            <IntegrationsButton projectId={project.id} canManage={project.abilities.update} />
            <ShareButton project={project} variant="bar" />
          </>
        }
      />
      <ExpiredNotice project={project} />
      <div className="project-home__body">
        <PagesPanel project={project} selectedPageId={page?.id} />
        <div className="project-home__main">
          {page?.isArchived ? <ArchivedNotice project={project} page={page} /> : null}
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

/** An archived page opened from the archived list: it says so, and editors can bring it back. */
function ArchivedNotice({ project, page }: { project: ProjectDetail; page: Page }) {
  const setArchived = useSetPageArchived();
  return (
    <div className="archived-notice">
      <Archive size={16} aria-hidden />
      <span className="archived-notice__text">
        This page is archived: it is hidden from the pages list.{" "}
        <Link className="link" to={`/project/${project.id}/archived`}>
          See archived pages
        </Link>
      </span>
      {project.abilities.updatePages ? (
        <button
          type="button"
          className="btn"
          disabled={setArchived.isPending}
          onClick={() => setArchived.mutate({ page, isArchived: false })}
        >
          <ArchiveRestore size={16} aria-hidden /> Unarchive
        </button>
      ) : null}
    </div>
  );
}

/** The project's shell (bar, pages panel) around one of the card views. */
function ProjectCardsPage({
  project,
  view,
  ...section
}: { project: ProjectDetail; view: PagesView } & Omit<ComponentProps<typeof PageGridSection>, "project">) {
  return (
    <div className="screen project-home">
      <ProjectBar
        project={project}
        share={
          <>
            <IntegrationsButton projectId={project.id} canManage={project.abilities.update} />
            <ShareButton project={project} variant="bar" />
          </>
        }
      />
      <ExpiredNotice project={project} />
      <div className="project-home__body">
        <PagesPanel project={project} view={view} />
        <div className="project-home__main">
          <PageGridSection project={project} {...section} />
        </div>
      </div>
    </div>
  );
}

/** `/project/{p}?view=grid`: every page that is not archived, as cards of the chosen size. */
function ProjectGridPage({ project }: { project: ProjectDetail }) {
  return (
    <ProjectCardsPage
      project={project}
      view="grid"
      pages={project.pages.filter((page) => !page.isArchived)}
      title="All pages"
      description="Every page, image and PDF of this project that is not archived."
      empty={
        <div className="empty-state">
          <LayoutGrid size={28} aria-hidden className="empty-state__icon" />
          <h3 className="empty-state__title">No pages to show</h3>
          <p className="empty-state__text">
            {project.abilities.addPages
              ? "Add a page by its address, or upload an image or PDF, and it shows here as a card."
              : "Pages added to this project will show here as cards."}
          </p>
        </div>
      }
    />
  );
}

/** `/project/{p}/archived` (SPEC §2 "Archived items of a project"): the archived pages, as cards. */
export function ProjectArchivedPage() {
  const project = useProjectContext();
  return (
    <ProjectCardsPage
      project={project}
      view="archived"
      pages={project.pages.filter((page) => page.isArchived)}
      title="Archived pages"
      description="Hidden from the pages list and skipped when all pages are updated; they still count toward the page limit."
      empty={
        <div className="empty-state">
          <FolderArchive size={28} aria-hidden className="empty-state__icon" />
          <h3 className="empty-state__title">No archived pages</h3>
          <p className="empty-state__text">
            {project.abilities.updatePages
              ? "Pages you archive are kept here, out of the way, until you unarchive them."
              : "Pages archived in this project will be listed here."}
          </p>
        </div>
      }
    />
  );
}
