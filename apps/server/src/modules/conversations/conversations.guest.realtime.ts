/**
 * The realtime socket of a public link's guest (`/api/realtime?guest`, no account, no session read): it
 * hears only its own conversations. `guest.join` with the project and the guest key joins the room of the
 * guest's participant id (`user:{participantId}`, where conversations.service.ts publishes each new message
 * and read) once the conversations policy lets the guest read that conversation; the same check runs
 * again before every event, so turning the link off (or archiving the project) silences the socket at
 * once. Events go out as room `guest:{projectId}`: the guest knows projects, not participant ids.
 */
import type { RealtimeClientMessage, RealtimeEvent, RealtimeServerMessage } from "@redline/shared";
import type { AppContext } from "../../context.ts";
import { parseServerMessage, type RealtimeHub, type RealtimeSocket, type Room } from "../../lib/realtime.ts";
import { readableGuestConversation } from "./conversations.guest.load.ts";
import { hashGuestKey } from "./conversations.service.ts";

/** One socket follows at most this many projects' conversations (a page shows one). */
const MAX_JOINED = 20;

interface Joined {
  projectId: string;
  keyHash: string;
  conversationId: string;
  room: Room;
}

/** What a guest socket asks of its conversations (the route answers `ping` and refuses the rest). */
export type GuestConversationMessage = Extract<RealtimeClientMessage, { type: "guest.join" | "guest.leave" }>;

export interface GuestConversations {
  handle(message: GuestConversationMessage): void;
  close(): void;
}

/** The conversations part of one guest socket; `send` writes to that socket. */
export function guestConversationsRealtime(
  ctx: AppContext,
  hub: RealtimeHub,
  send: (message: RealtimeServerMessage) => void,
): GuestConversations {
  const { db } = ctx.database;
  const { plansEnabled } = ctx.config;
  const joined = new Map<string, Joined>();
  let isClosed = false;
  // One queue per socket keeps joins and events in order while each is authorized.
  let queue = Promise.resolve();
  const enqueue = (work: () => Promise<void>) => {
    queue = queue.then(work).catch(() => undefined);
  };

  const leave = (entry: Joined) => {
    joined.delete(entry.projectId);
    // Another project's entry never shares a room: each conversation has its own guest participant.
    hub.leave(entry.room, member);
  };

  const member: RealtimeSocket = {
    // The hub writes directly only to say a room was revoked: passed on as it is.
    send: (data) => {
      const message = parseServerMessage(data);
      if (message) send(message);
    },
    userId: null,
    deliver: (room: Room, event: RealtimeEvent) =>
      enqueue(async () => {
        if (event.type !== "conversations.message" && event.type !== "conversations.read") return;
        const entry = [...joined.values()].find(
          (candidate) => candidate.room === room && candidate.conversationId === event.conversationId,
        );
        if (!entry) return;
        const readable = await readableGuestConversation(db, plansEnabled, entry.projectId, entry.keyHash);
        if (!readable || readable.conversation.id !== entry.conversationId) {
          leave(entry);
          return send({ type: "guest.left", projectId: entry.projectId });
        }
        send({ type: "event", room: `guest:${entry.projectId}`, event });
      }),
  };

  const handle = (message: GuestConversationMessage) => {
    const { projectId } = message;
    enqueue(async () => {
      const current = joined.get(projectId);
      if (current) leave(current);
      if (message.type === "guest.leave") return send({ type: "guest.left", projectId });
      if (joined.size >= MAX_JOINED) return send({ type: "error", code: "too-many", projectId });
      const keyHash = hashGuestKey(message.key);
      const readable = await readableGuestConversation(db, plansEnabled, projectId, keyHash);
      // No conversation yet (the guest's first message makes it) or not theirs to read: the same answer.
      if (!readable) return send({ type: "error", code: "forbidden", projectId });
      if (isClosed) return;
      const entry: Joined = {
        projectId,
        keyHash,
        conversationId: readable.conversation.id,
        room: `user:${readable.participant.id}`,
      };
      joined.set(projectId, entry);
      hub.join(entry.room, member);
      send({ type: "guest.joined", projectId });
    });
  };

  return {
    handle,
    close: () => {
      isClosed = true;
      hub.leaveAll(member);
    },
  };
}
