/**
 * The realtime contract, both directions, in one place: the events the server fans out to rooms
 * (`project:{id}`, `user:{id}`) and the messages a socket exchanges. Server: apps/server/src/lib/realtime.ts
 * (fan-out) and modules/realtime (rooms, joining, revocation). Web: apps/web/src/lib/realtime.ts.
 */
import { z } from "zod";
import type { Comment } from "./comments.ts";
import { type ConversationMessage, guestKeySchema } from "./conversations.ts";
import type { Notification, NotificationCounts } from "./notifications.ts";
import type { Page, Version } from "./projects.ts";
import type { DeckPresence } from "./slides.ts";
import type { BrowseList, Ticket } from "./tickets.ts";

/**
 * Server → client realtime events (rooms `project:{id}` and `user:{id}`). New and changed comments carry
 * the full comment, new notifications the full notification (either may be left out when too large:
 * refetch).
 */
/** A comment's place in an event: a page's version, or a slide's (`versionId` null, `slideId` set). */
interface CommentPlace {
  projectId: string;
  versionId: string | null;
  slideId?: string;
  commentId: string;
}

export type RealtimeEvent =
  | ({ type: "comments.created"; comment?: Comment } & CommentPlace)
  /** `comment`: the comment as it now reads (left out when too large: refetch). */
  | ({ type: "comments.changed"; comment?: Comment } & CommentPlace)
  | ({ type: "comments.deleted" } & CommentPlace)
  /**
   * A capture moved on (queued, capturing with its stage, ready, failed): the version as it now reads,
   * and its page as the project lists it (title, thumbnail and versions as GET /api/projects/{id} gives
   * them), so the project page follows a capture with no read.
   */
  | {
      type: "versions.changed";
      projectId: string;
      pageId: string;
      versionId: string;
      version: Version;
      page?: Page;
    }
  /** Inspect changes of the version were saved, hidden, resolved or deleted: refetch them. */
  | { type: "inspect.changed"; projectId: string; versionId: string }
  /** Room `user:{id}`: a notification for this user. */
  | {
      type: "notifications.created";
      /** Null for a team's notification (then `teamId`). */
      projectId: string | null;
      teamId?: string;
      notificationId: string;
      notification?: Notification;
      /**
       * The reader's counts read after this notification was stored (added per socket by the server):
       * the badge takes them as they are — a count the tab read meanwhile may hold this notification already.
       */
      counts?: NotificationCounts;
    }
  /** Room `user:{id}`: the user's notifications were marked seen or notified (another tab): refetch. */
  | { type: "notifications.changed" }
  /** Room `user:{id}`: the user's access to a project began, changed or ended: refetch the lists. */
  | { type: "projects.changed"; projectId: string }
  /** Room `user:{id}`: a team of this user's (or their place in it) began, changed or ended: refetch it. */
  | { type: "teams.changed"; teamId: string }
  /**
   * Room `project:{id}` of a bug-tracking project: a ticket was created or changed (moved, assigned,
   * resolved, triaged, replied to). `ticket`: the card as it now reads, with no one's abilities — each
   * socket fills in its reader's (left out when too large: refetch the board).
   */
  | { type: "tickets.changed"; projectId: string; ticketId: string; ticket?: Ticket }
  | { type: "tickets.deleted"; projectId: string; ticketId: string }
  /** A list was created, renamed or moved (`list`), or deleted (no `list`; its tickets went with it). */
  | { type: "lists.changed"; projectId: string; listId: string; list?: BrowseList }
  /**
   * Room `user:{id}` of each participant (a guest of the public link: its participant id, delivered to
   * its guest socket as room `guest:{projectId}`): a new message in a conversation of theirs (`message`
   * left out when too large: refetch). No `projectId`: it is not a project room's event.
   */
  | { type: "conversations.message"; conversationId: string; message?: ConversationMessage }
  /** Room `user:{id}`: the user read a conversation (another tab): refetch the counts. */
  | { type: "conversations.read"; conversationId: string }
  /** Room `project:{id}` of an illustration project: a Yjs update of its deck (base64), from the editor tab `clientId`. */
  | { type: "deck.updated"; projectId: string; update: string; clientId: number | null }
  /** Room `project:{id}`: who is on which slide with what selected (relayed, never kept). */
  | { type: "deck.presence"; projectId: string; presence: DeckPresence };
/*
 * A public link's guest (no account) opens the socket as `/api/realtime?guest` and joins its own
 * conversation in a project with `guest.join` (its guest key, as in GUEST_KEY_HEADER): it then hears that
 * conversation's `conversations.message` and `conversations.read` as events of room `guest:{projectId}`.
 * With `topic: "comments"` it hears instead the comments the link shows (`comments.*`, each comment with
 * the guest's abilities), in the same room, while the link stays on.
 */

/** What a guest socket follows in a project: its own conversation (the default) or the link's comments. */
export const guestTopicSchema = z.enum(["conversation", "comments"]);
export type GuestTopic = z.infer<typeof guestTopicSchema>;

/** Client → server messages on the realtime socket. */
export const realtimeClientMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("join"), projectId: z.string().min(1).max(64) }),
  z.object({ type: z.literal("leave"), projectId: z.string().min(1).max(64) }),
  z.object({ type: z.literal("ping") }),
  /** Guest sockets only: hear one's own conversation in this project (the public link must be on). */
  z.object({
    type: z.literal("guest.join"),
    projectId: z.string().min(1).max(64),
    key: guestKeySchema,
    topic: guestTopicSchema.optional(),
  }),
  z.object({
    type: z.literal("guest.leave"),
    projectId: z.string().min(1).max(64),
    topic: guestTopicSchema.optional(),
  }),
]);
export type RealtimeClientMessage = z.infer<typeof realtimeClientMessageSchema>;

/** Server → client messages on the realtime socket. */
export type RealtimeServerMessage =
  /** The socket's user is known and it is in its own room (`user:{id}`): refetch what it shows. */
  | { type: "ready" }
  | { type: "joined"; projectId: string }
  | { type: "left"; projectId: string }
  /**
   * A guest socket hears its conversation in this project (`topic` "comments": the link's comments):
   * refetch it (something may have been missed).
   */
  | { type: "guest.joined"; projectId: string; topic?: "comments" }
  /** A guest socket no longer hears it (the link was turned off, or the guest is no longer in it). */
  | { type: "guest.left"; projectId: string; topic?: "comments" }
  | { type: "pong" }
  | { type: "error"; code: string; projectId?: string }
  | { type: "event"; room: string; event: RealtimeEvent };

/**
 * The close a server sends its realtime sockets when it stops (a restart, a rolling upgrade): WebSocket's
 * "Service Restart". A client reconnects at once — through the load balancer, to a process still running —
 * and resyncs its rooms, instead of backing off as after a drop.
 */
export const REALTIME_RESTART_CLOSE = { code: 1012, reason: "restarting" } as const;
