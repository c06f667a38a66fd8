/**
 * The comments a public link shows, live on its guest's socket (`/api/realtime?guest`, no account):
 * `guest.join` with `topic: "comments"` puts the socket in the project's room (`project:{id}`, where
 * comments.service.ts publishes every created, changed — replied, edited, resolved, moved — and deleted
 * comment) once the comments policy lets a link guest read it: the same rule as the guest comment list
 * (the link on, the project not archived, the link's access; `linkGuestView`). The rule is asked again
 * before every event, so turning the link off silences the socket at once (it is told `guest.left`), and
 * a lowered access shows in the very next comment's abilities. Only comment events of a version the link
 * shows (or of a slide, when the link is an illustration project's: it shows the whole deck) go out, each
 * comment presented for the guest as the list route presents it, as room `guest:{projectId}` — and a
 * deck's changes and presence (`deck.updated`, so a guest's read-only deck follows its editors, and
 * `deck.presence`, so the guest sees who is on it); nothing else of the
 * project room (versions, inspect, tickets) reaches a guest.
 */
import { type RealtimeEvent, type RealtimeServerMessage, viewerOf } from "@redline/shared";
import type { AppContext } from "../../context.ts";
import { parseServerMessage, type RealtimeHub, type RealtimeSocket, type Room } from "../../lib/realtime.ts";
import { canSlides } from "../slides/slides.policy.ts";
import { linkGuestView } from "./comments.guest.operations.ts";
import { canComment, withCommentAbilities } from "./comments.policy.ts";

/** One socket follows at most this many projects' comments (a page shows one). */
const MAX_JOINED = 20;

type CommentEvent = Extract<RealtimeEvent, { type: `comments.${string}` }>;

const isCommentEvent = (event: RealtimeEvent): event is CommentEvent =>
  event.type === "comments.created" || event.type === "comments.changed" || event.type === "comments.deleted";

/** What a link guest hears: the link's comments, and a deck's changes and presence when it shows a deck. */
type DeckEvent = Extract<RealtimeEvent, { type: "deck.updated" | "deck.presence" }>;
type GuestEvent = CommentEvent | DeckEvent;
const isDeckEvent = (event: RealtimeEvent): event is DeckEvent =>
  event.type === "deck.updated" || event.type === "deck.presence";
const isGuestEvent = (event: RealtimeEvent): event is GuestEvent =>
  isCommentEvent(event) || isDeckEvent(event);

type LinkView = Awaited<ReturnType<typeof linkGuestView>>;

/**
 * What the link showed as of one event, looked up once however many guest sockets the event reaches: the
 * hub hands every socket of a room the same event object, and the first socket to ask — after the event
 * committed — looks; the others share its answer (one lookup per event, not one per guest).
 */
const viewAtEvent = new WeakMap<RealtimeEvent, Promise<LinkView>>();

export interface GuestComments {
  join(projectId: string): void;
  leave(projectId: string): void;
  close(): void;
}

/** The comments part of one guest socket; `send` writes to that socket. */
export function guestCommentsRealtime(
  ctx: AppContext,
  hub: RealtimeHub,
  send: (message: RealtimeServerMessage) => void,
  loadView: (projectId: string) => Promise<LinkView> = (projectId) =>
    linkGuestView(ctx.database.db, ctx.config.plansEnabled, projectId),
): GuestComments {
  const joined = new Set<string>();
  let isClosed = false;
  // One queue keeps joins and events in order while each is authorized.
  let queue = Promise.resolve();
  const enqueue = (work: () => Promise<void>) => {
    queue = queue.then(work).catch(() => undefined);
  };
  const roomOf = (projectId: string): Room => `project:${projectId}`;
  /** What the guest may read now; null: nothing (the link is off, the project archived or gone). */
  const readable = async (projectId: string, event?: GuestEvent) => {
    let looked = event && viewAtEvent.get(event);
    if (!looked) {
      looked = loadView(projectId);
      if (event) viewAtEvent.set(event, looked);
    }
    const view = await looked;
    return view && canComment(view.guest, "comments.read") ? view : null;
  };
  const drop = (projectId: string) => {
    joined.delete(projectId);
    hub.leave(roomOf(projectId), member);
    send({ type: "guest.left", projectId, topic: "comments" });
  };

  const member: RealtimeSocket = {
    userId: null,
    // The hub writes directly only to say the room was revoked (the project deleted): `left`.
    send: (data) => {
      const message = parseServerMessage(data);
      if (message?.type !== "left") return;
      enqueue(async () => {
        if (joined.has(message.projectId)) drop(message.projectId);
      });
    },
    deliver: (room, event) =>
      enqueue(async () => {
        if (!isGuestEvent(event) || room !== roomOf(event.projectId) || !joined.has(event.projectId)) return;
        const view = await readable(event.projectId, event);
        if (!joined.has(event.projectId)) return;
        if (!view) return drop(event.projectId);
        // A deck's change, and who is on it, reach the guest of its link (it shows the deck, read only).
        if (isDeckEvent(event)) {
          if (canSlides(view.guest, "slides.read") && viewerOf(view.project.type) === "slides")
            send({ type: "event", room: `guest:${event.projectId}`, event });
          return;
        }
        // A version the link does not show (another page, an older version) stays out of sight; a slide's
        // comment goes out when the link shows the deck (an illustration project's link shows all of it).
        const isShown = event.slideId
          ? viewerOf(view.project.type) === "slides"
          : view.versions.some((version) => version.id === event.versionId);
        if (!isShown) return;
        const shown: RealtimeEvent =
          event.type !== "comments.deleted" && event.comment
            ? { ...event, comment: withCommentAbilities(view.guest, event.comment) }
            : event;
        send({ type: "event", room: `guest:${event.projectId}`, event: shown });
      }),
  };

  return {
    join: (projectId) =>
      enqueue(async () => {
        if (joined.has(projectId)) {
          joined.delete(projectId);
          hub.leave(roomOf(projectId), member);
        }
        if (joined.size >= MAX_JOINED) return send({ type: "error", code: "too-many", projectId });
        if (!(await readable(projectId))) return send({ type: "error", code: "forbidden", projectId });
        if (isClosed) return;
        joined.add(projectId);
        hub.join(roomOf(projectId), member);
        send({ type: "guest.joined", projectId, topic: "comments" });
      }),
    leave: (projectId) =>
      enqueue(async () => {
        joined.delete(projectId);
        hub.leave(roomOf(projectId), member);
        send({ type: "guest.left", projectId, topic: "comments" });
      }),
    close: () => {
      isClosed = true;
      joined.clear();
      hub.leaveAll(member);
    },
  };
}
