/**
 * A project seen through its public link (`/share`, `/embed`, `/preview`): the pages list (only when
 * the link shows more than one page), the chosen page and version in the viewer, the device toolbar
 * unless the link hides it, the version switcher only when it shows versions. Read-only: no editing
 * control. The position lives in the query (`?page=&version=&device=`) so a reload keeps it. An
 * illustration project's link shows its deck instead (`SharedDeckView`).
 */
import type { Comment, Page } from "@redline/shared";
import { ExternalLink } from "lucide-react";
import { Suspense, useCallback } from "react";
import { useSearchParams } from "react-router";
import { ApprovedBadge } from "../components/approved-badge.tsx";
import { Avatar } from "../components/avatar.tsx";
import { LoadingView } from "../components/loading-view.tsx";
import { COMMENT_MODE_HINT, CommentWorkspace } from "../features/comments/comment-workspace.tsx";
import { GuestMessages } from "../features/conversations/guest-messages.tsx";
import { PageItemLink } from "../features/pages/page-item-link.tsx";
import { versionsLabel } from "../features/pages/page-labels.ts";
import type { Guest } from "../features/sharing/guest-store.ts";
import type { SharedProject } from "../features/sharing/shared-queries.ts";
import { DeviceToolbar } from "../features/viewer/device-toolbar.tsx";
import { type DeviceId, deviceSize, isDeviceId } from "../features/viewer/devices.ts";
import { SlideCommentsPanel, SlideEditor } from "./lazy-slides.tsx";
import "../features/pages/pages.css";
import "../features/viewer/viewer.css";
import "../features/sharing/shared-view.css";

interface SharedViewProps {
  project: SharedProject;
  guest: Guest | null;
  variant: "share" | "embed" | "preview";
}

/**
 * Guests write as themselves; the server's access decides (the link allows comments and the project has
 * not expired — an expired project is read-only for guests too). A preview never takes comments.
 */
const guestCanComment = ({ project, guest, variant }: SharedViewProps) =>
  project.access === "comment" && guest !== null && variant !== "preview";

export function SharedProjectView({
  project,
  guest,
  variant,
  only,
}: SharedViewProps & {
  /** `/preview`: this one version, nothing else. */
  only?: { pageId: string; versionId: string };
}) {
  const [params, setParams] = useSearchParams();
  const { sharing } = project;
  const pageId = only?.pageId ?? params.get("page");
  const page = project.pages.find((entry) => entry.id === pageId) ?? (only ? undefined : project.pages[0]);
  const versionId = only?.versionId ?? params.get("version");
  const version =
    page?.versions.find((entry) => entry.id === versionId) ?? (only ? undefined : page?.versions.at(-1));
  const deviceParam = params.get("device");
  const device: DeviceId = isDeviceId(deviceParam) && !sharing.hideDeviceToolbar ? deviceParam : "desktop";
  const showPages = !only && project.pages.length > 1;
  const showVersions = !only && sharing.showPageVersions && page !== undefined && page.versions.length > 1;
  const showDevices = !sharing.hideDeviceToolbar && version?.kind === "snapshot";

  const canComment = guestCanComment({ project, guest, variant });
  const isMine = useCallback(
    (comment: Comment) =>
      Boolean(
        guest && comment.thread[0]?.author.isGuest && comment.thread[0].author.displayName === guest.name,
      ),
    [guest],
  );

  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value === null) next.delete(name);
    else next.set(name, value);
    setParams(next, { replace: true });
  };

  return (
    <div className={`review shared shared--${variant}`}>
      <div className="screen__bar review__bar">
        <div className="review__titles shared__titles">
          {page ? <p className="shared__project">{project.title}</p> : null}
          <h1 className="review__title">{page?.title ?? project.title}</h1>
        </div>
        {showVersions && page && version ? (
          <select
            className="input shared__versions"
            aria-label="Version"
            value={version.id}
            onChange={(event) => setParam("version", event.target.value)}
          >
            {[...page.versions].reverse().map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.title}
              </option>
            ))}
          </select>
        ) : version && (only || page?.versions.length === 1) ? (
          <span className="tag">{version.title}</span>
        ) : null}
        {page ? <ApprovedBadge page={page} /> : null}
        <div className="review__spacer" />
        {showDevices ? (
          <DeviceToolbar
            device={device}
            onChange={(next) => setParam("device", next === "desktop" ? null : next)}
          />
        ) : null}
        <SharedBarEnd project={project} guest={guest} variant={variant} />
      </div>
      <div className="review__body">
        {showPages ? <SharedPagesList project={project} selectedPageId={page?.id} /> : null}
        {version ? (
          <CommentWorkspace
            scope={{
              projectId: project.id,
              versionId: version.id,
              guestIdentity: guest?.identity ?? "public",
            }}
            version={version}
            mode={only ? "preview" : "comment"}
            device={deviceSize(device)}
            abilities={{ canComment, canAttach: false }}
            people={null}
            panelTitle="Comments"
            isMine={isMine}
            selectedId={params.get("id")}
            onSelect={(id) => setParam("id", id)}
            contentProps={{ shareProjectId: project.id }}
            note={canComment ? COMMENT_MODE_HINT : undefined}
          />
        ) : (
          <main className="review__stage">
            <div className="viewer-message" role={only ? "alert" : undefined}>
              <p className="viewer-message__title">
                {only || pageId ? "Page does not exist." : "No pages yet"}
              </p>
              <p className="viewer-message__text">
                {only
                  ? "It may have been deleted, or the link no longer shows it."
                  : "Pages added to this project will show here."}
              </p>
            </div>
          </main>
        )}
      </div>
    </div>
  );
}

/**
 * An illustration project through its public link: the deck read only in the slide editor (no editing
 * control; the server refuses a guest's writes), its slides' comments read — and pinned, when the link
 * allows comments — under the guest's name.
 */
export function SharedDeckView({ project, guest, variant }: SharedViewProps) {
  const canComment = guestCanComment({ project, guest, variant });
  return (
    <div className={`shared shared--${variant} shared--deck`}>
      <Suspense fallback={<LoadingView text="Loading slides…" />}>
        <SlideEditor
          project={{
            id: project.id,
            title: project.title,
            canComment,
            guestIdentity: guest?.identity ?? "public",
          }}
          bar={
            <div className="screen__bar review__bar">
              <div className="review__titles shared__titles">
                <h1 className="review__title">{project.title}</h1>
              </div>
              <div className="review__spacer" />
              <SharedBarEnd project={project} guest={guest} variant={variant} />
            </div>
          }
          commentsPanel={(props) => <SlideCommentsPanel {...props} people={null} />}
        />
      </Suspense>
    </div>
  );
}

/** The end of a shared view's bar: messages to the team, who the guest is, and an embed's way out. */
function SharedBarEnd({ project, guest, variant }: SharedViewProps) {
  return (
    <>
      {variant === "share" ? (
        <GuestMessages projectId={project.id} identity={guest?.identity ?? "public"} />
      ) : null}
      {guest ? (
        <span className="shared__guest" title={`You are viewing as ${guest.name}`}>
          <Avatar name={guest.name} photoURL={null} size={28} />
          <span className="shared__guest-name">{guest.name}</span>
        </span>
      ) : null}
      {variant === "embed" ? (
        <a
          className="btn btn--ghost shared__open"
          href={`/share/${project.id}`}
          target="_blank"
          rel="noopener"
        >
          Open in Redline <ExternalLink size={14} aria-hidden />
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      ) : null}
    </>
  );
}

function SharedPagesList({ project, selectedPageId }: { project: SharedProject; selectedPageId?: string }) {
  const [params] = useSearchParams();
  const hrefFor = (page: Page) => {
    const next = new URLSearchParams();
    next.set("page", page.id);
    const device = params.get("device");
    if (device) next.set("device", device);
    return `?${next}`;
  };
  return (
    <aside className="pages-panel shared__pages" aria-labelledby="shared-pages-title">
      <div className="pages-panel__head">
        <h2 id="shared-pages-title" className="pages-panel__title">
          Pages
        </h2>
        <span className="pages-panel__count">{project.pages.length}</span>
      </div>
      <ul className="pages-list" aria-label="Pages of this project">
        {project.pages.map((page) => {
          const isSelected = page.id === selectedPageId;
          return (
            <li key={page.id} className={isSelected ? "page-item page-item--selected" : "page-item"}>
              <PageItemLink page={page} to={hrefFor(page)} replace isSelected={isSelected}>
                {project.sharing.showPageVersions ? versionsLabel(page.versions.length) : null}
                <ApprovedBadge page={page} />
              </PageItemLink>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
