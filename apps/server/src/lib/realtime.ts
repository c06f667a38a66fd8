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

interface Envelope {
  room: Room;
  event: RealtimeEvent;
}

type Executor = Pick<Database, "execute">;

export async function publish(tx: Executor, room: Room, event: RealtimeEvent): Promise<void> {
  let payload = JSON.stringify({ room, event } satisfies Envelope);
  if (payload.length > MAX_PAYLOAD)
    payload = JSON.stringify({ room, event: shrink(event) } satisfies Envelope);
  await tx.execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${payload})`);
}

function shrink(event: RealtimeEvent): RealtimeEvent {
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
}

export async function startRealtimeHub(database: DatabaseHandle): Promise<RealtimeHub> {
  const rooms = new Map<Room, Set<RealtimeSocket>>();
  const unlisten = await database.listen(REALTIME_CHANNEL, (payload) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    const members = rooms.get(envelope.room);
    if (!members) return;
    const message = JSON.stringify({ type: "event", room: envelope.room, event: envelope.event });
    for (const socket of members) socket.send(message);
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
