/**
 * Page review (`/project/{p}/{page}/{version}/{currentView}`): a top bar (back to the project, page
 * title, version switcher, page approval, device toolbar, review mode), the version in the middle, and the pages or
 * versions panel beside it. Controls follow the project's abilities.
 */
import type { Page, ProjectDetail } from "@redline/shared";
import { ArrowLeft, ChevronDown, PanelLeft } from "lucide-react";
import { useState } from "react";
import { Link, NavLink, useNavigate, useSearchParams } from "react-router";
import { PageApproval } from "../pages/page-approval.tsx";
import { pageSource } from "../pages/page-status.tsx";
import { PagesPanel } from "../pages/pages-panel.tsx";
import { DeviceToolbar } from "./device-toolbar.tsx";
import { type DeviceId, deviceSize, isDeviceId } from "./devices.ts";
import { VersionContent } from "./version-content.tsx";
import { useRecapture } from "./version-queries.ts";
import { VersionsPanel } from "./versions-panel.tsx";
import "./viewer.css";

export const REVIEW_VIEWS = ["comment", "inspect", "preview"] as const;
export type ReviewMode = (typeof REVIEW_VIEWS)[number];

const MODE_LABELS: Record<ReviewMode, string> = {
  comment: "Comment",
  inspect: "Inspect",
  preview: "Preview",
};
const MODE_NOTES: Record<ReviewMode, string> = {
  comment: "Pinned comments are coming soon. For now, review the page as it was captured.",
  inspect: "Suggesting edits to styles and text is coming soon. This is the page as it was captured.",
  preview: "The page as it was captured, without review tools.",
};

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

  const handleDevice = (next: DeviceId) => {
    const nextParams = new URLSearchParams(params);
    if (next === "desktop") nextParams.delete("device");
    else nextParams.set("device", next);
    setParams(nextParams, { replace: true });
  };

  const handleRetry = () =>
    recapture.mutate(page.id, { onSuccess: ({ data }) => navigate(`${base}/${data.id}/comment`) });

  return (
    <div className="review">
      <div className="review__bar">
        <Link to={base} className="icon-btn" aria-label="Back to project">
          <ArrowLeft size={18} aria-hidden />
        </Link>
        <button
          type="button"
          className="icon-btn"
          aria-label="Pages"
          aria-pressed={panel === "pages"}
          onClick={() => togglePanel("pages")}
        >
          <PanelLeft size={18} aria-hidden />
        </button>
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
      <div className="review__body">
        {panel === "pages" ? (
          <div className="review__side review__side--left">
            <PagesPanel project={project} selectedPageId={page.id} />
          </div>
        ) : null}
        <main className="review__stage">
          <p className="review__note" role="note">
            {MODE_NOTES[mode]}
          </p>
          {version ? (
            <VersionContent
              key={version.id}
              versionId={version.id}
              width={deviceSize(device).width}
              height={deviceSize(device).height}
              onRetry={canEdit && page.url !== "image" ? handleRetry : undefined}
              isRetrying={recapture.isPending}
            />
          ) : (
            <div className="viewer-message" role="alert">
              <p className="viewer-message__title">This version does not exist.</p>
              <Link className="btn" to={base}>
                Back to the page
              </Link>
            </div>
          )}
        </main>
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
