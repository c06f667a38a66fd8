/**
 * Realtime fan-out. A module records its domain event with `recordEvent(tx, event)` INSIDE its write
 * transaction, into the ledger (lib/ledger.ts), which readers see only once that transaction commits, so no
 * one hears of a change that was rolled back. Which rooms an event reaches, and what each reader sees of
 * it, the module registers (`fanOut`, `readerView`): this file knows no event type. A write that records
 * no domain event yet sends a realtime envelope (`publish`, `announceChanged`, `revokeRoom`). Every app
 * process follows the ledger and hands each event to its own sockets in that room — several processes
 * behind a load balancer share rooms through the database, and a process whose connection was lost for a
 * moment delivers what it missed. What only the sockets open now need and no one keeps (presence) goes
 * around the ledger (`broadcast`): a NOTIFY carrying the event, heard by every process's hub.
 */
import { randomUUID } from "node:crypto";
import {
  type RealtimeClientMessage,
  type RealtimeEvent,
  type RealtimeServerMessage,
  realtimeClientMessageSchema,
} from "@redline/shared";
import { sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "../db/index.ts";
import { type Ledger, type LedgerEvent, record, recordAll } from "./ledger.ts";
import type { PolicyActor } from "./policy.ts";

/** The ledger's type for what a room's sockets (or an in-process cache) are told. */
export const REALTIME_EVENT = "realtime";

export type Room = `project:${string}` | `user:${string}`;

/**
 * An event for a room's sockets, or a revocation: those sockets (of one user, or all) leave the room.
 * `id` names the announcement, so the process that sent it knows when it hears it back.
 */
type Envelope =
  | { room: Room; event: RealtimeEvent; revoke?: undefined; id?: string }
  | { room: Room; event?: undefined; revoke: { userId: string | null }; id?: string }
  /** A change only in-process caches hear of (`announceChanged`): no socket is told. */
  | { room: Room; event?: undefined; revoke?: undefined; id: string };

type Executor = Pick<Database, "execute">;

/**
 * What an in-process cache of published state needs to hear (e.g. comments.cache.ts): `sent` as a
 * write of this process announces a change, inside its transaction (it may still roll back); `heard` for
 * every announcement the database delivers — committed, from any process — before any socket gets it;
 * `gap` when the listening connection is lost (announcements may be missed) and when it listens again.
 */
export interface RealtimeObserver {
  sent?(room: Room, event: RealtimeEvent | null, id: string): void;
  heard?(room: Room, event: RealtimeEvent | null, id: string | undefined): void;
  gap?(state: "lost" | "listening"): void;
}

/** Writes run in transactions, not on a database handle: whatever this process sends is told to all. */
const senders = new Set<RealtimeObserver>();
const listeners = new WeakMap<Database, Set<RealtimeObserver>>();

/** Observes what this process sends and what the hub of `db` hears; returns the function that stops. */
export function observeRealtime(db: Database, observer: RealtimeObserver): () => void {
  const forDb = listeners.get(db) ?? new Set<RealtimeObserver>();
  listeners.set(db, forDb);
  forDb.add(observer);
  senders.add(observer);
  return () => {
    forDb.delete(observer);
    senders.delete(observer);
  };
}

function tellSent(room: Room, event: RealtimeEvent | null, id: string): void {
  for (const observer of senders) observer.sent?.(room, event, id);
}

function send(tx: Executor, envelope: Envelope & { id: string }): Promise<void> {
  tellSent(envelope.room, envelope.event ?? null, envelope.id);
  return record(tx, { type: REALTIME_EVENT, ...envelope });
}

export function publish(tx: Executor, room: Room, event: RealtimeEvent): Promise<void> {
  return send(tx, { room, event, id: randomUUID() });
}

/** The channel of `broadcast`: its payload is the event itself (nothing is kept anywhere). */
export const EPHEMERAL_CHANNEL = "redline_realtime";
/** NOTIFY's payload limit is 8000 bytes. */
export const EPHEMERAL_MAX_BYTES = 7900;

/**
 * An event for the room's sockets open now and for no one else — not kept, not read by consumers, not
 * redelivered after a gap (presence: each tab repeats its own). Every process hears it straight from
 * PostgreSQL's NOTIFY; the durable ledger never holds it. Outside a transaction it goes at once.
 */
export async function broadcast(db: Executor, room: Room, event: RealtimeEvent): Promise<void> {
  const payload = JSON.stringify({ room, event });
  if (Buffer.byteLength(payload) > EPHEMERAL_MAX_BYTES)
    throw new Error(`a broadcast of ${event.type} is too big for NOTIFY`);
  await db.execute(sql`select pg_notify(${EPHEMERAL_CHANNEL}, ${payload})`);
}

function parseBroadcast(payload: string): { room: Room; event: RealtimeEvent } | null {
  const parsed = parseJson(payload) as { room?: unknown; event?: { type?: unknown } } | null;
  if (typeof parsed?.room !== "string" || typeof parsed.event?.type !== "string") return null;
  return parsed as { room: Room; event: RealtimeEvent };
}

/**
 * Someone lost access to a project (removed, left, or the project is gone): every process drops that
 * user's sockets — or all of them, with `userId` null — from the room, inside the same transaction
 * as the change. Joining checked the policy once; this keeps the answer true afterwards.
 */
export function revokeRoom(tx: Executor, room: Room, userId: string | null): Promise<void> {
  return send(tx, { room, revoke: { userId }, id: randomUUID() });
}

/**
 * Something read through a room changed without an event its sockets need (a project renamed, a page
 * added, a link's settings): every process's caches of the room's state forget it (lib/announced-cache.ts),
 * inside the same transaction as the change, like `publish`. No socket is told.
 */
export function announceChanged(tx: Executor, room: Room): Promise<void> {
  return send(tx, { room, id: randomUUID() });
}

/**
 * What a domain event reaches: each room, and the event its sockets get — none when only in-process
 * caches of the room's state are to forget it (as `announceChanged`).
 */
export type Fanned = { room: Room; event?: RealtimeEvent }[];

const fanOuts = new Map<string, (event: LedgerEvent) => Fanned>();

/**
 * A module says which rooms one of its domain events reaches, and with what (issue #28: realtime rooms
 * chosen per module from the event, not at the write). Registered when the module's events file loads
 * (modules/events.ts loads them all).
 */
export function fanOut<E extends LedgerEvent>(type: E["type"], rooms: (event: E) => Fanned): void {
  fanOuts.set(type, rooms as (event: LedgerEvent) => Fanned);
}

/** What one reader may see of a realtime event (e.g. a comment with that reader's abilities). */
export type ReaderView<E extends RealtimeEvent = RealtimeEvent> = (
  event: E,
  reader: PolicyActor,
  db: Database,
) => RealtimeEvent | null | Promise<RealtimeEvent | null>;

const views = new Map<string, ReaderView>();

/**
 * A module says what each reader sees of one of its realtime events; without a view, every socket in the
 * room gets the event as it was sent. Registered beside the module's `fanOut`.
 */
export function readerView<T extends RealtimeEvent["type"]>(
  type: T,
  view: ReaderView<Extract<RealtimeEvent, { type: T }>>,
): void {
  views.set(type, view as ReaderView);
}

/** The event as `reader` sees it; null when there is nothing of their own (send it as shared). */
export function viewFor(
  event: RealtimeEvent,
  reader: PolicyActor,
  db: Database,
): RealtimeEvent | null | Promise<RealtimeEvent | null> {
  return views.get(event.type)?.(event, reader, db) ?? null;
}

/**
 * Records a domain event inside the write's transaction — one record for what happened, which its
 * consumers read and which reaches the rooms its module's `fanOut` names (in-process caches are told
 * at once, as `publish` does).
 */
export function recordEvent(tx: Executor, event: LedgerEvent): Promise<void> {
  return recordEvents(tx, [event]);
}

/** Several domain events of one write, recorded in one statement in this order (`recordEvent` each). */
export async function recordEvents(tx: Executor, events: readonly LedgerEvent[]): Promise<void> {
  const announced = events.map((event) => {
    const announcement = randomUUID();
    for (const { room, event: told } of fanOuts.get(event.type)?.(event) ?? [])
      tellSent(room, told ?? null, announcement);
    return { ...event, announcement };
  });
  await recordAll(tx, announced);
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

const isEnvelope = (event: LedgerEvent): event is LedgerEvent & Envelope =>
  event.type === REALTIME_EVENT && typeof event.room === "string";

/**
 * Follows the ledger in this process: each room's events to its sockets here, in the order recorded.
 * With `listen` (the database's), it also hands `broadcast` events to them as they are heard.
 */
export function startRealtimeHub(
  db: Database,
  ledger: Ledger,
  listen?: DatabaseHandle["listen"],
): RealtimeHub {
  const rooms = new Map<Room, Set<RealtimeSocket>>();
  const observers = () => listeners.get(db) ?? [];
  const unfollow = ledger.follow((events) => {
    for (const { event } of events) {
      if (isEnvelope(event)) deliver(event);
      else
        for (const fanned of fanOuts.get(event.type)?.(event) ?? [])
          deliver({
            room: fanned.room,
            event: fanned.event,
            id: typeof event.announcement === "string" ? event.announcement : randomUUID(),
          } as Envelope);
    }
  });
  const unwatch = ledger.watchGaps((state) => {
    for (const observer of observers()) observer.gap?.(state);
  });
  // Broadcasts reach sockets only: no cache keeps what they carry.
  const unlisten = listen?.(EPHEMERAL_CHANNEL, (payload) => {
    const heard = parseBroadcast(payload);
    if (heard) toSockets(heard.room, heard.event);
  }).catch((error: unknown) => {
    console.error("the realtime hub could not listen for broadcasts", error);
    return undefined;
  });
  function deliver(envelope: Envelope) {
    // Caches forget first, so a socket told of a change and refetching reads it.
    for (const observer of observers()) observer.heard?.(envelope.room, envelope.event ?? null, envelope.id);
    if (envelope.revoke) revoke(envelope.room, envelope.revoke.userId);
    else if (envelope.event) toSockets(envelope.room, envelope.event);
  }
  function revoke(room: Room, userId: string | null) {
    const members = rooms.get(room);
    if (!members) return;
    const left = JSON.stringify({ type: "left", projectId: room.replace(/^project:/, "") });
    for (const socket of [...members]) {
      if (userId !== null && socket.userId !== userId) continue;
      members.delete(socket);
      socket.send(left);
    }
    if (members.size === 0) rooms.delete(room);
  }
  function toSockets(room: Room, event: RealtimeEvent) {
    const members = rooms.get(room);
    if (!members) return;
    const shared = JSON.stringify({ type: "event", room, event });
    for (const socket of members) {
      if (socket.deliver) socket.deliver(room, event, shared);
      else socket.send(shared);
    }
  }
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
    async stop() {
      unfollow();
      unwatch();
      await (await unlisten)?.();
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A client's frame as one of the protocol's messages; null when it is not JSON or not such a message. */
export function parseClientMessage(raw: { toString(): string }): RealtimeClientMessage | null {
  const parsed = realtimeClientMessageSchema.safeParse(parseJson(raw.toString()));
  return parsed.success ? parsed.data : null;
}

/** A frame the hub writes to a socket itself (`left`, when a room is revoked); null when it is not JSON. */
export function parseServerMessage(data: string): RealtimeServerMessage | null {
  return parseJson(data) as RealtimeServerMessage | null;
}
