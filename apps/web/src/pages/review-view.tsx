/**
 * Page review (`/project/{p}/{page}/{version}/{currentView}`): a top bar (back to the project, page
 * title, version switcher, page approval, device toolbar, review mode), the version in the middle, and the pages or
 * versions panel beside it. Controls follow the project's abilities.
 */
import type { Comment, Page, ProjectDetail } from "@redline/shared";
import { ArrowLeft, ChevronDown, PanelLeft } from "lucide-react";
import { useCallback, useState } from "react";
import { Link, NavLink, useNavigate, useSearchParams } from "react-router";
import { COMMENT_MODE_HINT, CommentWorkspace } from "../features/comments/comment-workspace.tsx";
import { useMentionPeople } from "../features/comments/use-mention-people.ts";
import { useProjectRealtime } from "../features/comments/use-project-realtime.ts";
import { EDIT_MODE_HINT, InspectWorkspace } from "../features/inspect/inspect-workspace.tsx";
import { useProjectIntegrations } from "../features/integrations/integrations-queries.ts";
import { useTrackerCards } from "../features/integrations/tracker-queries.ts";
import { PageApproval } from "../features/pages/page-approval.tsx";
import { pageSource } from "../features/pages/page-labels.ts";
import { PagesPanel } from "../features/pages/pages-panel.tsx";
import { ExpiredNotice } from "../features/projects/expired-notice.tsx";
import { useMe } from "../features/session/use-me.ts";
import { DeviceToolbar } from "../features/viewer/device-toolbar.tsx";
import { type DeviceId, deviceSize, isDeviceId } from "../features/viewer/devices.ts";
import { useRecapture } from "../features/viewer/version-queries.ts";
import { VersionsPanel } from "../features/viewer/versions-panel.tsx";
import "../features/viewer/viewer.css";
import { IconButton } from "../components/icon-button.tsx";

export const REVIEW_VIEWS = ["comment", "inspect", "preview"] as const;
export type ReviewMode = (typeof REVIEW_VIEWS)[number];

const MODE_LABELS: Record<ReviewMode, string> = {
  comment: "Comment",
  inspect: "Inspect",
  preview: "Preview",
};
const MODE_NOTES: Record<ReviewMode, string> = {
  comment: COMMENT_MODE_HINT,
  inspect: EDIT_MODE_HINT,
  preview: "The page with its suggested edits applied, without review tools.",
};
const VIEW_ONLY_NOTE = "You can read the comments on this page. Your access does not let you add any.";
const EDITS_VIEW_ONLY_NOTE =
  "You can see the suggested edits on this page. Your access does not let you add any.";
const EXPIRED_NOTE = "You can read the comments on this page. The project has expired, so none can be added.";
const EDITS_EXPIRED_NOTE =
  "You can see the suggested edits on this page. The project has expired, so none can be added.";

export function ReviewView({
  project,
  page,
  versionId,
  mode,
}: {
  project: ProjectDetail;
  page: Page;
  versionId: string;
  mode: ReviewMode;
}) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [panel, setPanel] = useState<"pages" | "versions" | null>(null);
  const recapture = useRecapture();
  const version = page.versions.find((entry) => entry.id === versionId);
  const deviceParam = params.get("device");
  const device: DeviceId = isDeviceId(deviceParam) ? deviceParam : "desktop";
  const canEdit = project.abilities.updatePages;
  const base = `/project/${project.id}/${page.id}`;
  const togglePanel = (next: "pages" | "versions") => setPanel((current) => (current === next ? null : next));
  const { data: me } = useMe();
  const userId = me?.uid ?? null;
  // The task-tracker cards of its comments and edits (and, for a manager, the trackers to make them in)
  // load with the review, not when a thread opens: live changes then read nothing more.
  useTrackerCards(project.id);
  useProjectIntegrations(project.id, { enabled: project.abilities.update });
  const people = useMentionPeople(project);
  const isMine = useCallback((comment: Comment) => comment.thread[0]?.userId === userId, [userId]);
  useProjectRealtime(project.id, true);
  const selectedId = params.get("id");
  const handleSelect = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set("id", id);
    else next.delete("id");
    setParams(next, { replace: true });
  };
  const canComment = project.abilities.comment;

  const handleDevice = (next: DeviceId) => {
    const nextParams = new URLSearchParams(params);
    if (next === "desktop") nextParams.delete("device");
    else nextParams.set("device", next);
    setParams(nextParams, { replace: true });
  };

  const handleRetry = () =>
    recapture.mutate(page.id, { onSuccess: ({ data }) => navigate(`${base}/${data.id}/comment`) });

  return (
    <div className="screen review">
      <div className="screen__bar review__bar">
        <Link to={base} className="icon-btn" aria-label="Back to project">
          <ArrowLeft size={18} aria-hidden />
        </Link>
        <IconButton
          label="Pages"
          icon={PanelLeft}
          iconSize={18}
          aria-pressed={panel === "pages"}
          onClick={() => togglePanel("pages")}
        />
        <div className="review__titles">
          <h1 className="review__title">{page.title}</h1>
          <p className="review__source">{pageSource(page)}</p>
        </div>
        <button
          type="button"
          className="btn review__versions"
          aria-expanded={panel === "versions"}
          onClick={() => togglePanel("versions")}
        >
          <span className="visually-hidden">Versions: </span>
          {version?.title ?? "Versions"}
          <ChevronDown size={16} aria-hidden />
        </button>
        <div className="review__spacer" />
        <PageApproval project={project} page={page} />
        {version?.kind === "snapshot" ? <DeviceToolbar device={device} onChange={handleDevice} /> : null}
        <nav className="review-modes" aria-label="Review mode">
          {REVIEW_VIEWS.map((entry) => (
            <NavLink
              key={entry}
              to={`${base}/${versionId}/${entry}${params.size ? `?${params}` : ""}`}
              className="review-modes__link"
            >
              {MODE_LABELS[entry]}
            </NavLink>
          ))}
        </nav>
      </div>
      <ExpiredNotice project={project} />
      <div className="review__body">
        {panel === "pages" ? (
          <div className="review__side review__side--left">
            <PagesPanel project={project} selectedPageId={page.id} />
          </div>
        ) : null}
        {version && mode === "comment" ? (
          <CommentWorkspace
            scope={{ projectId: project.id, versionId: version.id }}
            version={version}
            mode={mode}
            device={deviceSize(device)}
            abilities={{
              canComment,
              canAttach: project.abilities.attachFiles,
              canManageIntegrations: project.abilities.update,
            }}
            people={people}
            panelTitle={canEdit ? "Activity" : "Comments"}
            isMine={isMine}
            showPanel={panel !== "versions"}
            selectedId={selectedId}
            onSelect={handleSelect}
            contentProps={{
              onRetry: canEdit && page.url !== "image" ? handleRetry : undefined,
              isRetrying: recapture.isPending,
            }}
            note={canComment ? MODE_NOTES[mode] : project.isExpired ? EXPIRED_NOTE : VIEW_ONLY_NOTE}
          />
        ) : version ? (
          <InspectWorkspace
            key={version.id}
            projectId={project.id}
            version={version}
            mode={mode === "inspect" ? "inspect" : "preview"}
            device={deviceSize(device)}
            canEdit={project.abilities.suggestEdits}
            canManageIntegrations={project.abilities.update}
            showPanel={panel !== "versions"}
            contentProps={{
              onRetry: canEdit && page.url !== "image" ? handleRetry : undefined,
              isRetrying: recapture.isPending,
            }}
            note={
              mode === "inspect" && !project.abilities.suggestEdits
                ? project.isExpired
                  ? EDITS_EXPIRED_NOTE
                  : EDITS_VIEW_ONLY_NOTE
                : MODE_NOTES[mode]
            }
          />
        ) : (
          <main className="review__stage">
            <div className="viewer-message" role="alert">
              <p className="viewer-message__title">This version does not exist.</p>
              <Link className="btn" to={base}>
                Back to the page
              </Link>
            </div>
          </main>
        )}
        {panel === "versions" ? (
          <div className="review__side">
            <VersionsPanel
              projectId={project.id}
              page={page}
              currentVersionId={versionId}
              view={mode}
              canEdit={canEdit}
              onClose={() => setPanel(null)}
            />
          </div>
        ) : null}
      </div>
    </div>
  );
}
