/**
 * In-app notifications (SPEC §3 Notification, §4 states, §9, shared wording): the API contract, the
 * realtime event, and the pure rules both sides read — what a notification says and where it leads.
 */
import { z } from "zod";
import { teamRoleSchema } from "./teams.ts";
import { notificationPageTitle } from "./titles.ts";
import type { EmailPreferenceKey } from "./user.ts";

/** Every type SPEC §3 names (`false-comment`: a new comment on a page that is an uploaded file). */
export const NOTIFICATION_TYPES = [
  "web-comment",
  "false-comment",
  "web-comment-mention",
  "web-comment-reply",
  "web-comment-reply-mention",
  "illustration-comment",
  "illustration-comment-mention",
  "illustration-comment-reply",
  "illustration-comment-reply-mention",
  "web-inspect",
  "project-share",
  "web-page-add",
  "team-member-add",
  "team-member-access",
  "team-member-left",
  "make-approver",
  "page-approved",
  "page-unapproved",
  "web-comment-resolve",
  "browse-ticket-add",
  // Not a SPEC §3 type: a visitor's request on /request-review, for the project's owner (review-requests.ts).
  "review-request",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** What the notification was about, as it was when it happened (titles may change later). */
export const notificationContextSchema = z.strictObject({
  projectTitle: z.string(),
  pageTitle: z.string().optional(),
  /** web-inspect: how many edits the save suggested. */
  editsCount: z.number().int().optional(),
  /** A guest of the public link who commented: their name and avatar (they have no account). */
  userName: z.string().optional(),
  photoURL: z.string().nullable().optional(),
  /** team-member-*: the team's name as it was, and (team-member-add, -access) the access given. */
  teamName: z.string().optional(),
  access: teamRoleSchema.optional(),
  /** browse-ticket-add, and mentions in a ticket's thread: the ticket (opened with `?t=`). */
  ticketId: z.string().optional(),
  /** browse-ticket-add of a widget report kept past the board's ticket limit: that limit. */
  ticketLimit: z.number().int().optional(),
  /** review-request: the page to review, and the visitor's address to answer them at. */
  reviewUrl: z.string().optional(),
  email: z.string().optional(),
});
export type NotificationContext = z.infer<typeof notificationContextSchema>;

export const notificationActorSchema = z.strictObject({
  uid: z.string().nullable(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
});
export type NotificationActor = z.infer<typeof notificationActorSchema>;

export const notificationSchema = z.strictObject({
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  /** Null for a team's notification (team-member-*), which is about its team instead. */
  projectId: z.string().nullable(),
  teamId: z.string().nullable().optional(),
  pageId: z.string().nullable(),
  versionId: z.string().nullable(),
  commentId: z.string().nullable(),
  actor: notificationActorSchema,
  context: notificationContextSchema,
  /** Grouped count (SPEC §3 length). */
  length: z.number().int(),
  createdAt: z.iso.datetime(),
  isSeen: z.boolean(),
  isNotified: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationCountsSchema = z.strictObject({
  unseen: z.number().int().min(0),
  /** Not yet shown in an opened panel: the bell's badge. */
  notNotified: z.number().int().min(0),
});
export type NotificationCounts = z.infer<typeof notificationCountsSchema>;

export const NOTIFICATIONS_PAGE_SIZE = 20;
export const MAX_NOTIFICATIONS_PAGE_SIZE = 100;
/** A new notification's toast closes itself after this long (SPEC §4). */
export const NOTIFICATION_TOAST_MS = 3000;

/**
 * Views whose last path segment silences the toast and its chime (SPEC §4 "depending on the last path
 * segment"): the suggested-edits editor, where a toast would cover the panel mid-edit, and the clean
 * preview shown to clients. The bell still counts the news.
 */
const QUIET_VIEWS: ReadonlySet<string> = new Set(["inspect", "preview"]);

export function isToastShownOn(pathname: string): boolean {
  const last = pathname.split("/").filter(Boolean).pop() ?? "";
  return !QUIET_VIEWS.has(last);
}

const id = z.string().min(1).max(64);

/** A page's position: the last notification's time and id (`{ISO time}~{id}`), as the API hands it out. */
export const NOTIFICATION_CURSOR = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)~([A-Za-z0-9_-]{1,64})$/;

/** GET /api/notifications: newest first, optionally one project's; `before` is the previous page's cursor. */
export const listNotificationsQuerySchema = z
  .object({
    projectId: id.optional(),
    limit: z.coerce.number().int().min(1).max(MAX_NOTIFICATIONS_PAGE_SIZE).default(NOTIFICATIONS_PAGE_SIZE),
    before: z.string().regex(NOTIFICATION_CURSOR, "Expected a cursor from a previous page").optional(),
  })
  .strict();

export const notificationsPageSchema = z.strictObject({
  data: z.array(notificationSchema),
  /** Pass as `before` for the next page; null at the end. */
  nextCursor: z.string().nullable(),
  /** The projects the user has notifications from, for the filter. */
  projects: z.array(z.strictObject({ id: z.string(), title: z.string() })),
});
export type NotificationsPage = z.infer<typeof notificationsPageSchema>;

/** The answer of a write to many notifications: how many it changed. */
export const notificationsUpdatedSchema = z.strictObject({ updated: z.number().int().min(0) });

/** PATCH /api/notifications/{id}: toggle one. */
export const updateNotificationSchema = z.object({ isSeen: z.boolean() }).strict();

/** POST /api/notifications/seen ("Clear all"), optionally only the filtered project's. */
export const markAllSeenSchema = z.object({ projectId: id.optional() }).strict();

/**
 * The shared wording (SPEC §9): what follows the actor's name. 'resolved your comment on' has no text
 * in the spec; it is worded like its neighbours.
 */
export function notificationMessage(
  notification: Pick<Notification, "type" | "context"> & { length?: number },
): string {
  // Repeats folded into one notification (SPEC §3 length) are counted; edits count themselves.
  const times = notification.length ?? 1;
  switch (notification.type) {
    case "web-comment":
    case "false-comment":
      if (times > 1) return `left ${times} comments on page`;
      return "commented on page";
    case "illustration-comment":
      return "commented on page";
    case "web-comment-mention":
    case "web-comment-reply-mention":
    case "illustration-comment-mention":
    case "illustration-comment-reply-mention":
      return "mentioned you in a comment on";
    case "web-comment-reply":
      if (times > 1) return `replied ${times} times to your comment on`;
      return "replied to your comment on";
    case "illustration-comment-reply":
      return "replied to your comment on";
    case "web-comment-resolve":
      if (times > 1) return `resolved ${times} of your comments on`;
      return "resolved your comment on";
    case "web-inspect": {
      const count = notification.context.editsCount ?? 1;
      return `suggested ${count} ${count === 1 ? "edit" : "edits"} on page`;
    }
    case "project-share":
      return "invited you to a project";
    case "team-member-add":
      return "invited you to team";
    case "team-member-access":
      return "changed your access in team";
    case "team-member-left":
      return "left your team";
    case "browse-ticket-add":
      // A report kept past the limit says so: its owner decides whether to upgrade or make room.
      if (notification.context.ticketLimit !== undefined)
        return `created a ticket past the limit of ${notification.context.ticketLimit} tickets on`;
      return "created a ticket on";
    // Not in SPEC §9's list of wordings; worded like its neighbours.
    case "web-page-add":
      return "added page";
    case "page-approved":
      return "approved page";
    case "page-unapproved":
      return "unapproved page";
    case "make-approver":
      return "made you an approver of";
    case "review-request":
      return "asked you to review";
    default:
      return "updated";
  }
}

const TEAM_NOTIFICATIONS: readonly NotificationType[] = [
  "team-member-add",
  "team-member-access",
  "team-member-left",
];
/** A team's notification: about a team, not a project (SPEC §4 member events). */
export const isTeamNotification = (notification: Pick<Notification, "type">) =>
  TEAM_NOTIFICATIONS.includes(notification.type);

/** What the message is about: the page title cut to 15 characters (SPEC §9), or the project's title. */
export function notificationSubject(notification: Pick<Notification, "type" | "context">): string {
  if (notification.type === "project-share") return notification.context.projectTitle;
  if (notification.type === "review-request") return notification.context.reviewUrl ?? "";
  if (isTeamNotification(notification)) return notification.context.teamName ?? "";
  return notificationPageTitle(notification.context.pageTitle ?? notification.context.projectTitle);
}

/** Where clicking a notification leads. */
export function notificationTarget(
  notification: Pick<Notification, "projectId" | "teamId" | "pageId" | "versionId" | "commentId" | "type"> & {
    context?: Pick<NotificationContext, "ticketId">;
  },
): string {
  const { projectId, pageId, versionId, commentId } = notification;
  if (isTeamNotification(notification)) return `/team/${notification.teamId ?? ""}`;
  const ticketId = notification.context?.ticketId;
  if (ticketId) return `/project/${projectId}?t=${encodeURIComponent(ticketId)}`;
  // A slide's comment (an illustration project): the slide editor opens it (SPEC §2 `?id=`).
  if (!pageId && commentId) return `/project/${projectId}?id=${encodeURIComponent(commentId)}`;
  if (!pageId || !versionId) return `/project/${projectId}`;
  const version = `/project/${projectId}/${pageId}/${versionId}`;
  if (notification.type === "web-inspect") return `${version}/inspect?activity=true`;
  if (commentId) return `${version}/comment?id=${encodeURIComponent(commentId)}`;
  // A page added, approved or unapproved: the version in the review view (a bare version path is no route).
  return `${version}/comment`;
}

/**
 * Which e-mail preference (SPEC §3 emailPreferences) lets a notification also arrive by e-mail; null
 * for the kinds that are not mailed as notifications (an invitation has its own mail already).
 */
export function emailPreferenceOf(type: NotificationType): EmailPreferenceKey | null {
  switch (type) {
    case "web-comment":
    case "false-comment":
    case "web-comment-reply":
    case "illustration-comment":
    case "illustration-comment-reply":
      return "comments";
    case "web-comment-mention":
    case "web-comment-reply-mention":
    case "illustration-comment-mention":
    case "illustration-comment-reply-mention":
      return "mentions";
    case "web-comment-resolve":
      return "commentResolve";
    case "web-inspect":
      return "edits";
    case "page-approved":
      return "pagesApproved";
    case "page-unapproved":
      return "pagesUnapproved";
    default:
      return null;
  }
}

/**
 * The e-mail preferences no mail of an instance is about: offers and news (marketing, blog updates and
 * bug fixes) are the vendor's newsletters, which a self-hosted instance never sends. The flags are kept
 * (SPEC §3) and so honoured trivially; every other flag gates the notification kinds `emailPreferenceOf`
 * maps to it.
 */
export const UNSENT_EMAIL_PREFERENCES: readonly EmailPreferenceKey[] = ["marketing", "blogUpdatesBugFixes"];
