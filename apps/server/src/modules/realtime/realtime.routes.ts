/**
 * The realtime socket: one per signed-in tab at /api/realtime. A socket joins a project's room only
 * after the same policy that guards the HTTP read says yes; it is in its own user's room
 * (`user:{id}`, notifications) as soon as the session is known, and is told `ready`. Events arrive from
 * lib/realtime.ts. A public link's guest opens `/api/realtime?guest` instead: no session, only its own
 * conversations (modules/conversations/conversations.guest.realtime.ts) and, with `topic: "comments"`, the
 * comments the link shows (modules/comments/comments.guest.realtime.ts).
 */
import type { Access, RealtimeServerMessage } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { parseClientMessage, type RealtimeHub, type RealtimeSocket, viewFor } from "../../lib/realtime.ts";
import { route } from "../../lib/routes.ts";
import { type Actor, getActor } from "../auth/session.ts";
import { guestCommentsRealtime } from "../comments/comments.guest.realtime.ts";
import { canComment } from "../comments/comments.policy.ts";
import { guestConversationsRealtime } from "../conversations/conversations.guest.realtime.ts";
import { loadProject } from "../project-access/projects.load.ts";

export async function realtimeRoutes(
  app: FastifyInstance,
  { ctx, hub }: { ctx: AppContext; hub: RealtimeHub },
) {
  const { db } = ctx.database;

  app.get(
    "/api/realtime",
    route(
      {
        summary:
          "WebSocket: project rooms (comments, changes, pages, board tickets and lists) and the user's own notifications; with `?guest`, a public link's guest hears its own conversations and the link's comments",
        action: "comments.read",
        // A WebSocket: its messages are RealtimeServerMessage (packages/shared realtime.ts), not an HTTP answer.
        response: "not-json",
      },
      { websocket: true },
    ),
    (socket, request) => {
      const send = (message: RealtimeServerMessage) => socket.send(JSON.stringify(message));
      // Cross-site WebSocket hijacking: only pages of an origin trusted for sign-in (the app, the
      // bug-tracking host, a team's active domain) may open a socket with the user's cookie.
      const isTrusted = ctx.isTrustedOrigin(request.headers.origin).then((trusted) => {
        if (!trusted) socket.close(4403, "origin");
        return trusted;
      });
      if ((request.query as Record<string, unknown>).guest !== undefined)
        return guestSocket(ctx, hub, socket, isTrusted);
      // Handlers attach at once (messages may arrive while the session loads); each waits for it.
      const member: RealtimeSocket = { send: (data) => socket.send(data), userId: null };
      // The reader's access to each project whose room the socket is in: comment events are presented with
      // this reader's abilities. Kept true by the user's own `projects.changed` (access began, changed or ended).
      const accessTo = new Map<string, Access>();
      let isClosed = false;
      const accessOf = (user: Actor, projectId: string) =>
        loadProject(db, user, projectId)
          .then((loaded) => loaded.access)
          .catch(() => null);
      const refresh = async (user: Actor, projectId: string) => {
        const access = await accessOf(user, projectId);
        if (!accessTo.has(projectId)) return;
        if (canComment(policyActorOf(user, access), "comments.read") && access) {
          accessTo.set(projectId, access);
        } else {
          accessTo.delete(projectId);
          hub.leave(`project:${projectId}`, member);
          send({ type: "left", projectId });
        }
      };
      const actor = isTrusted.then(async (trusted) => {
        if (!trusted) return null;
        const found = await getActor(request);
        if (!found?.user.emailVerified) {
          socket.close(4401, "unauthenticated");
          return null;
        }
        member.userId = found.user.id;
        // One queue per socket keeps events in order while an access change is re-read.
        let queue = Promise.resolve();
        member.deliver = (room, event, shared) => {
          queue = queue
            .then(async () => {
              if (event.type === "projects.changed" && accessTo.has(event.projectId))
                await refresh(found, event.projectId);
              // Each module says what a reader sees of its events (e.g. a comment with their abilities).
              const view = viewFor(
                event,
                policyActorOf(
                  found,
                  "projectId" in event && event.projectId ? (accessTo.get(event.projectId) ?? null) : null,
                ),
                db,
              );
              // Most views are synchronous: a room of hundreds of sockets waits on no extra turn for them.
              const own = view instanceof Promise ? await view : view;
              if (own) return socket.send(JSON.stringify({ type: "event", room, event: own }));
              socket.send(shared);
            })
            .catch(() => undefined);
        };
        if (!isClosed) {
          hub.join(`user:${found.user.id}`, member);
          send({ type: "ready" });
        }
        return found;
      });
      socket.on("close", () => {
        isClosed = true;
        hub.leaveAll(member);
      });
      socket.on("message", async (raw) => {
        const user = await actor;
        if (!user) return;
        const message = parseClientMessage(raw);
        if (!message) return send({ type: "error", code: "bad-message" });
        if (message.type === "ping") return send({ type: "pong" });
        // A guest's own conversations are for guest sockets (`?guest`).
        if (message.type === "guest.join" || message.type === "guest.leave")
          return send({ type: "error", code: "bad-message", projectId: message.projectId });
        if (message.type === "leave") {
          accessTo.delete(message.projectId);
          hub.leave(`project:${message.projectId}`, member);
          return send({ type: "left", projectId: message.projectId });
        }
        const access = await accessOf(user, message.projectId);
        if (!access || !canComment(policyActorOf(user, access), "comments.read"))
          return send({ type: "error", code: "forbidden", projectId: message.projectId });
        accessTo.set(message.projectId, access);
        hub.join(`project:${message.projectId}`, member);
        send({ type: "joined", projectId: message.projectId });
      });
    },
  );
}

/** The WebSocket as the route hands it over (ws's socket: text frames in and out). */
interface GuestWebSocket {
  send(data: string): void;
  on(event: "message", listener: (raw: { toString(): string }) => void): void;
  on(event: "close", listener: () => void): void;
}

/**
 * A public link guest's socket: each frame is read once and goes to its topic — `guest.join`/`guest.leave`
 * with `topic: "comments"` follow the link's comments, without a topic the guest's own conversation.
 * Project rooms (`join`/`leave`) are for signed-in people.
 */
function guestSocket(
  ctx: AppContext,
  hub: RealtimeHub,
  socket: GuestWebSocket,
  isTrusted: Promise<boolean>,
): void {
  const send = (message: RealtimeServerMessage) => socket.send(JSON.stringify(message));
  const comments = guestCommentsRealtime(ctx, hub, send);
  const conversations = guestConversationsRealtime(ctx, hub, send);
  socket.on("message", async (raw) => {
    if (!(await isTrusted)) return;
    const message = parseClientMessage(raw);
    if (!message) return send({ type: "error", code: "bad-message" });
    if (message.type === "ping") return send({ type: "pong" });
    if (message.type === "join" || message.type === "leave")
      return send({ type: "error", code: "forbidden", projectId: message.projectId });
    if (message.topic !== "comments") return conversations.handle(message);
    if (message.type === "guest.join") return comments.join(message.projectId);
    return comments.leave(message.projectId);
  });
  socket.on("close", () => {
    comments.close();
    conversations.close();
  });
}
