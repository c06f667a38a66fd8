/**
 * The realtime socket: one per signed-in tab at /api/realtime. A socket joins a project's room only
 * after the same policy that guards the HTTP read says yes; it is in its own user's room
 * (`user:{id}`, notifications) as soon as the session is known, and is told `ready`. Events arrive from
 * lib/realtime.ts.
 */
import { type RealtimeServerMessage, realtimeClientMessageSchema } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import type { RealtimeHub, RealtimeSocket } from "../../lib/realtime.ts";
import { getActor } from "../auth/session.ts";
import { loadProject } from "../projects/projects.load.ts";
import { can } from "../projects/projects.policy.ts";

export async function realtimeRoutes(
  app: FastifyInstance,
  { ctx, hub }: { ctx: AppContext; hub: RealtimeHub },
) {
  const { db } = ctx.database;
  const appOrigin = new URL(ctx.config.appUrl).origin;

  app.get("/api/realtime", { websocket: true }, (socket, request) => {
    const send = (message: RealtimeServerMessage) => socket.send(JSON.stringify(message));
    // Cross-site WebSocket hijacking: only our own pages may open a socket with the user's cookie.
    if (request.headers.origin !== appOrigin) return socket.close(4403, "origin");
    // Handlers attach at once (messages may arrive while the session loads); each waits for it.
    const member: RealtimeSocket = { send: (data) => socket.send(data), userId: null };
    let isClosed = false;
    const actor = getActor(ctx.auth, db, request).then((found) => {
      if (!found?.user.emailVerified) {
        socket.close(4401, "unauthenticated");
        return null;
      }
      member.userId = found.user.id;
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
      const parsed = realtimeClientMessageSchema.safeParse(safeJson(raw.toString()));
      if (!parsed.success) return send({ type: "error", code: "bad-message" });
      const message = parsed.data;
      if (message.type === "ping") return send({ type: "pong" });
      if (message.type === "leave") {
        hub.leave(`project:${message.projectId}`, member);
        return send({ type: "left", projectId: message.projectId });
      }
      const access = await loadProject(db, user, message.projectId)
        .then((loaded) => loaded.access)
        .catch(() => null);
      if (!can(access, "comments.read"))
        return send({ type: "error", code: "forbidden", projectId: message.projectId });
      hub.join(`project:${message.projectId}`, member);
      send({ type: "joined", projectId: message.projectId });
    });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
