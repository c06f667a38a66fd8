/**
 * The public views (SPEC §2): `/share/{p}` — a signed-in visitor joins (comment access) and goes to
 * the project; anyone else is asked once for a name and sees what the link allows. `/embed/{p}` is the
 * same without the app's chrome, `/preview/{p}/{page}/{version}` one version, read-only. When the link
 * is off or the project is gone: 'Project is not found or accessible. Redirecting to all projects.'
 * (5 s) and on to `/projects`, or `/` for a signed-out visitor. `/share/demo` opens the demo project.
 */
import { projectTabTitle, SHARING_MESSAGES, SNACKBAR_MS, viewerOf } from "@redline/shared";
import { useQueryClient } from "@tanstack/react-query";
import { Link2Off, RotateCw, TriangleAlert } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { LoadingView } from "../components/loading-view.tsx";
import { snackbar } from "../components/snackbar-store.ts";
import { PROJECTS_KEY } from "../features/projects/project-queries.ts";
import { useMe } from "../features/session/use-me.ts";
import { GuestPrompt } from "../features/sharing/guest-prompt.tsx";
import { type Guest, readGuest } from "../features/sharing/guest-store.ts";
import { isNotAccessible, joinSharedProject, useSharedProject } from "../features/sharing/shared-queries.ts";
import { errorMessage } from "../lib/auth-client.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import { SharedDeckView, SharedProjectView } from "./shared-view.tsx";
import "../components/status-views.css";

type Variant = "share" | "embed" | "preview";

/** `/share/demo` is the public link of the server's demo project: everyone sees it as a guest would. */
const DEMO_PROJECT_ID = "demo";

export function SharePage() {
  const { projectId = "" } = useParams();
  return <SharedEntry key={projectId} projectId={projectId} variant="share" />;
}

export function EmbedPage() {
  const { projectId = "" } = useParams();
  return <SharedEntry key={projectId} projectId={projectId} variant="embed" />;
}

export function PreviewPage() {
  const { projectId = "", pageId = "", versionId = "" } = useParams();
  return (
    <SharedEntry
      key={`${projectId}/${pageId}/${versionId}`}
      projectId={projectId}
      variant="preview"
      only={{ pageId, versionId }}
    />
  );
}

function SharedEntry({
  projectId,
  variant,
  only,
}: {
  projectId: string;
  variant: Variant;
  only?: { pageId: string; versionId: string };
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: me, isPending: isMePending } = useMe();
  const isSignedIn = Boolean(me?.emailVerified);
  const joins = variant === "share" && isSignedIn && projectId !== DEMO_PROJECT_ID;
  const [joinError, setJoinError] = useState<unknown>(null);
  const hasJoined = useRef(false);
  const shared = useSharedProject(projectId, { enabled: !isMePending && !joins });
  const [guest, setGuest] = useState<Guest | null>(readGuest);
  useDocumentTitle(shared.data ? projectTabTitle(shared.data.title) : "Shared project");

  const leave = useCallback(() => {
    snackbar.error(SHARING_MESSAGES.notAccessible, SNACKBAR_MS.default);
    navigate(isSignedIn ? "/projects" : "/", { replace: true });
  }, [navigate, isSignedIn]);

  useEffect(() => {
    if (!joins || hasJoined.current) return;
    hasJoined.current = true;
    joinSharedProject(projectId).then(
      async () => {
        await queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
        navigate(`/project/${projectId}`, { replace: true });
      },
      (error: unknown) => (isNotAccessible(error) ? leave() : setJoinError(error)),
    );
  }, [joins, projectId, queryClient, navigate, leave]);

  // An embed stays where it is (inside someone else's page) and says so instead of navigating.
  const isGone = variant !== "embed" && isNotAccessible(shared.error);
  useEffect(() => {
    if (isGone) leave();
  }, [isGone, leave]);

  if (joinError)
    return (
      <Problem
        title="You could not join this project"
        text={errorMessage(joinError)}
        onRetry={() => window.location.reload()}
      />
    );
  if (isMePending || joins || isGone || shared.isPending) return <LoadingView />;
  if (shared.isError) {
    if (isNotAccessible(shared.error))
      return (
        <div className="status-view">
          <Link2Off size={32} aria-hidden className="status-view__icon" />
          <h1 className="status-view__title">This project is not shared publicly</h1>
          <p className="status-view__text">The link was turned off, or the project no longer exists.</p>
        </div>
      );
    return (
      <Problem
        title="The shared project could not be loaded"
        text={errorMessage(shared.error)}
        onRetry={() => shared.refetch()}
      />
    );
  }
  if (variant !== "preview" && !guest)
    return <GuestPrompt projectTitle={shared.data.title} onDone={setGuest} />;
  if (viewerOf(shared.data.type) === "slides")
    return (
      <SharedDeckView project={shared.data} guest={variant === "preview" ? null : guest} variant={variant} />
    );
  return (
    <SharedProjectView
      project={shared.data}
      guest={variant === "preview" ? null : guest}
      variant={variant}
      only={only}
    />
  );
}

function Problem({ title, text, onRetry }: { title: string; text: string; onRetry(): void }) {
  return (
    <div className="status-view" role="alert">
      <TriangleAlert size={32} aria-hidden className="status-view__icon" />
      <h1 className="status-view__title">{title}</h1>
      <p className="status-view__text">{text}</p>
      <div className="status-view__actions">
        <button type="button" className="btn btn--primary" onClick={onRetry}>
          <RotateCw size={16} aria-hidden /> Try again
        </button>
      </div>
    </div>
  );
}
