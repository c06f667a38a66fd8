/**
 * Realtime fan-out. A module publishes an event with `publish(tx, room, event)` INSIDE its write
 * transaction: Postgres delivers a NOTIFY only when that transaction commits, so listeners never hear of
 * a change that was rolled back. Every app process LISTENs on one channel and hands each event to its
 * own sockets in that room — several processes behind a load balancer share rooms through the database.
 */
import type { RealtimeEvent } from "@redline/shared";
import { sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "../db/index.ts";

export const REALTIME_CHANNEL = "redline_events";
/** Postgres caps a NOTIFY payload at 8000 bytes; larger events travel as "changed, refetch". */
const MAX_PAYLOAD = 7500;

export type Room = `project:${string}` | `user:${string}`;

/** An event for a room's sockets, or a revocation: those sockets (of one user, or all) leave the room. */
type Envelope =
  | { room: Room; event: RealtimeEvent; revoke?: undefined }
  | { room: Room; event?: undefined; revoke: { userId: string | null } };

type Executor = Pick<Database, "execute">;

export async function publish(tx: Executor, room: Room, event: RealtimeEvent): Promise<void> {
  let payload = JSON.stringify({ room, event } satisfies Envelope);
  if (payload.length > MAX_PAYLOAD)
    payload = JSON.stringify({ room, event: shrink(event) } satisfies Envelope);
  await tx.execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${payload})`);
}

/**
 * Someone lost access to a project (removed, left, or the project is gone): every process drops that
 * user's sockets — or all of them, with `userId` null — from the room, inside the same transaction
 * as the change. Joining checked the policy once; this keeps the answer true afterwards.
 */
export async function revokeRoom(tx: Executor, room: Room, userId: string | null): Promise<void> {
  const payload = JSON.stringify({ room, revoke: { userId } } satisfies Envelope);
  await tx.execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${payload})`);
}

function shrink(event: RealtimeEvent): RealtimeEvent {
  if (event.type === "notifications.created") return { ...event, notification: undefined };
  if (!("commentId" in event)) return event;
  return {
    type: "comments.changed",
    projectId: event.projectId,
    versionId: event.versionId,
    commentId: event.commentId,
  };
}

export interface RealtimeHub {
  join(room: Room, socket: RealtimeSocket): void;
  leave(room: Room, socket: RealtimeSocket): void;
  leaveAll(socket: RealtimeSocket): void;
  stop(): Promise<void>;
}

export interface RealtimeSocket {
  send(data: string): void;
  /** The signed-in user behind the socket, once known (revocations match on it). */
  userId?: string | null;
  /**
   * Delivers an event as this socket's reader should see it (e.g. a comment with that reader's
   * abilities), in the order events arrive. Without it, every socket in the room gets `shared`.
   */
  deliver?(room: Room, event: RealtimeEvent, shared: string): void;
}

/**
 * `onEvent` sees every event this process hears, whether or not a socket here is in its room (the
 * notification mailer starts from them).
 */
export async function startRealtimeHub(
  database: DatabaseHandle,
  onEvent?: (room: Room, event: RealtimeEvent) => void,
): Promise<RealtimeHub> {
  const rooms = new Map<Room, Set<RealtimeSocket>>();
  const unlisten = await database.listen(REALTIME_CHANNEL, (payload) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    if (!envelope.revoke && envelope.event) onEvent?.(envelope.room, envelope.event);
    const members = rooms.get(envelope.room);
    if (!members) return;
    if (envelope.revoke) {
      const { userId } = envelope.revoke;
      const left = JSON.stringify({ type: "left", projectId: envelope.room.replace(/^project:/, "") });
      for (const socket of [...members]) {
        if (userId !== null && socket.userId !== userId) continue;
        members.delete(socket);
        socket.send(left);
      }
      if (members.size === 0) rooms.delete(envelope.room);
      return;
    }
    const { room, event } = envelope;
    const shared = JSON.stringify({ type: "event", room, event });
    for (const socket of members) {
      if (socket.deliver) socket.deliver(room, event, shared);
      else socket.send(shared);
    }
  });
  return {
    join(room, socket) {
      const members = rooms.get(room) ?? new Set<RealtimeSocket>();
      rooms.set(room, members);
      members.add(socket);
    },
    leave(room, socket) {
      const members = rooms.get(room);
      members?.delete(socket);
      if (members?.size === 0) rooms.delete(room);
    },
    leaveAll(socket) {
      for (const [room, members] of rooms) {
        members.delete(socket);
        if (members.size === 0) rooms.delete(room);
      }
    },
    stop: unlisten,
  };
}
