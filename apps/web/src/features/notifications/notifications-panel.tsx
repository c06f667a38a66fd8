/**
 * The notifications panel (SPEC §2: 390 px wide, at least 240 px high, a project filter): newest first,
 * unseen ones highlighted, each opening its comment, suggested edits or project, each with its own
 * seen / unseen toggle, and "Clear all".
 */
import { type Notification, notificationMessage, notificationSubject } from "@redline/shared";
import { Circle, CircleCheck } from "lucide-react";
import { useState } from "react";
import { Avatar } from "../../components/avatar.tsx";
import { errorMessage } from "../../lib/auth-client.ts";
import { timeAgo } from "../../lib/time-ago.ts";
import { useNotifications } from "./notification-queries.ts";

export function NotificationsPanel({
  hasUnseen,
  isClearing,
  onToggle,
  onClearAll,
  onOpenItem,
}: {
  hasUnseen: boolean;
  isClearing: boolean;
  onToggle(notification: Notification): void;
  onClearAll(projectId: string | null): void;
  onOpenItem(notification: Notification): void;
}) {
  const [projectId, setProjectId] = useState<string | null>(null);
  const list = useNotifications(projectId, true);
  const items = list.data?.pages.flatMap((page) => page.data) ?? [];
  const projects = list.data?.pages[0]?.projects ?? [];

  return (
    <div className="notifications__inner">
      <div className="notifications__head">
        <h2 className="notifications__title">Notifications</h2>
        <button
          type="button"
          className="btn btn--ghost notifications__clear"
          disabled={!hasUnseen || isClearing}
          onClick={() => onClearAll(projectId)}
        >
          Clear all
        </button>
      </div>
      {projects.length > 0 || projectId ? (
        <select
          className="notifications__filter"
          aria-label="Filter by project"
          value={projectId ?? ""}
          onChange={(event) => setProjectId(event.target.value || null)}
        >
          <option value="">All projects</option>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.title || "Untitled project"}
            </option>
          ))}
        </select>
      ) : null}
      {list.isPending ? (
        <p className="notifications__state">Loading notifications...</p>
      ) : list.isError ? (
        <div className="notifications__state" role="alert">
          <p>{errorMessage(list.error)}</p>
          <button type="button" className="btn" onClick={() => void list.refetch()}>
            Try again
          </button>
        </div>
      ) : items.length === 0 ? (
        <p className="notifications__state">
          {projectId
            ? "No notifications from this project."
            : "You have no notifications. Activity on your projects will show up here."}
        </p>
      ) : (
        <ul className="notifications__list" aria-label="Notifications list">
          {items.map((notification) => (
            <NotificationItem
              key={notification.id}
              notification={notification}
              onOpen={() => onOpenItem(notification)}
              onToggle={() => onToggle(notification)}
            />
          ))}
        </ul>
      )}
      {list.hasNextPage ? (
        <button
          type="button"
          className="btn btn--ghost btn--block"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? "Loading..." : "Load more"}
        </button>
      ) : null}
    </div>
  );
}

function NotificationItem({
  notification,
  onOpen,
  onToggle,
}: {
  notification: Notification;
  onOpen(): void;
  onToggle(): void;
}) {
  const { actor, isSeen } = notification;
  return (
    <li className={`notification${isSeen ? "" : " notification--unseen"}`}>
      <button type="button" className="notification__open" onClick={onOpen}>
        <Avatar name={actor.displayName} photoURL={actor.photoURL} size={32} />
        <span className="notification__body">
          <span className="notification__text">
            <strong>{actor.displayName}</strong> {notificationMessage(notification)}{" "}
            <strong>{notificationSubject(notification)}</strong>
          </span>
          <time className="notification__time" dateTime={notification.createdAt}>
            {timeAgo(notification.createdAt)}
          </time>
        </span>
      </button>
      <button
        type="button"
        className="icon-btn notification__toggle"
        aria-label={isSeen ? "Mark as unseen" : "Mark as seen"}
        title={isSeen ? "Mark as unseen" : "Mark as seen"}
        onClick={onToggle}
      >
        {isSeen ? <Circle size={16} aria-hidden /> : <CircleCheck size={16} aria-hidden />}
      </button>
    </li>
  );
}
