/**
 * The ledger: what happened, kept. A write records its events with `record(tx, event)` inside its own
 * transaction, so an event exists exactly when its write committed. NOTIFY only wakes the readers; what
 * they read is the `domain_events` table, so an event sent while a process was down or its LISTEN
 * connection lost is read when it is back.
 *
 * Readers:
 * - a **durable consumer** (`consume`) keeps its cursor in `event_cursors` and handles each batch in one
 *   transaction with the cursor's advance: what it writes in the database happens exactly once, what it
 *   does outside (a job sent) at least once. One process at a time works a consumer (an advisory lock per
 *   pass); every process runs the same consumers, so another takes over when one stops.
 * - a **follower** (`follow`, the realtime fan-out) keeps its cursor in memory from the moment the process
 *   started: each process hands every event to its own sockets.
 *
 * Order: an event's row carries its transaction id. Readers go in (tx, id) order and only below the oldest
 * transaction still running, so no event that commits later can land behind a cursor.
 */
import { sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "../db/index.ts";
import { requestAsksNotToBeTracked } from "./request-scope.ts";

export const LEDGER_CHANNEL = "redline_ledger";

type Executor = Pick<Database, "execute">;
type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** An event as a module records it: its type, and what it carries (JSON). */
export interface LedgerEvent {
  type: string;
  [key: string]: unknown;
}

/** An event as a reader gets it. */
export interface RecordedEvent<E extends LedgerEvent = LedgerEvent> {
  id: number;
  /** The recording transaction's id (decimal text). */
  tx: string;
  event: E;
  createdAt: Date;
}

/**
 * Called by every write that changes what someone should hear of, inside its transaction. Several
 * records in one transaction wake each process once (NOTIFY folds equal payloads of one transaction).
 * An event recorded while serving a browser that asks not to be tracked carries `doNotTrack: true`
 * (lib/request-scope.ts), so what analytics makes of it keeps nothing identifying.
 */
export function record(tx: Executor, event: LedgerEvent): Promise<void> {
  return recordAll(tx, [event]);
}

/**
 * Several events of one write in one statement, in the given order (a comment's notifications for a
 * project's 500 people are one insert, not 500): each is its own row, read as if recorded one by one.
 */
export async function recordAll(tx: Executor, events: readonly LedgerEvent[]): Promise<void> {
  if (events.length === 0) return;
  const doNotTrack = requestAsksNotToBeTracked();
  const rows = events.map(({ type, ...payload }) => ({
    type,
    payload: doNotTrack ? { ...payload, doNotTrack: true } : payload,
  }));
  await tx.execute(
    sql`with recorded as (
          insert into domain_events (type, payload)
          select row->>'type', row->'payload'
            from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) with ordinality as given(row, position)
           order by position
          returning id)
        select pg_notify(${LEDGER_CHANNEL}, '1') from recorded limit 1`,
  );
}

interface Cursor {
  tx: string;
  id: number;
}

interface Row extends Record<string, unknown> {
  id: string | number;
  tx: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: string | Date;
  settled: boolean;
}

/**
 * Below this transaction id every event is settled: no transaction that could still record one before it is
 * running. That is the oldest transaction in progress (the snapshot's xmin) — but transaction ids are the
 * whole PostgreSQL server's, and a transaction of another database on it never writes this one's ledger, so
 * one proven to belong to another database (pg_stat_activity, by its 32-bit id) does not hold the readers
 * back: a long transaction elsewhere on a shared server once held every reader here. A transaction not
 * found there (it ended meanwhile, or its row is hidden from this role) still holds, for one more pass.
 * With none left: the snapshot's xmax, as the first id not yet given.
 */
const SETTLED_BELOW = sql`
  select coalesce(
           (select min(running)
              from pg_snapshot_xip(pg_current_snapshot()) as running
             where not exists (
               select 1 from pg_stat_activity activity
                where activity.datname is distinct from current_database()
                  and activity.backend_xid::text::bigint = running::text::numeric % 4294967296)),
           pg_snapshot_xmax(pg_current_snapshot()))`;

/**
 * The events after `cursor`, in order, up to `limit`; `held` when an event was left for a transaction
 * still running that may yet record one before it (read again shortly).
 */
async function readAfter(
  db: Executor,
  cursor: Cursor,
  limit: number,
): Promise<{ events: RecordedEvent[]; held: boolean }> {
  const result = await db.execute<Row>(sql`
    select id, tx::text as tx, type, payload, created_at,
           tx < (${SETTLED_BELOW}) as settled
      from domain_events
     where (tx, id) > (${cursor.tx}::xid8, ${cursor.id})
     order by tx, id
     limit ${limit}`);
  const rows = (result as unknown as { rows: Row[] }).rows;
  const settled = rows.filter((row) => row.settled);
  return {
    held: settled.length < rows.length,
    events: settled.map((row) => ({
      id: Number(row.id),
      tx: row.tx,
      event: { type: row.type, ...row.payload },
      createdAt: new Date(row.created_at),
    })),
  };
}

/** Where a reader that starts now begins: every event of a transaction that had not finished yet. */
async function horizon(db: Executor): Promise<Cursor> {
  const result = await db.execute<{ xmin: string }>(sql`select (${SETTLED_BELOW})::text as xmin`);
  const [row] = (result as unknown as { rows: { xmin: string }[] }).rows;
  return { tx: row!.xmin, id: -1 };
}

export interface ConsumerOptions<E extends LedgerEvent> {
  /** Unique and stable: the cursor's name. */
  name: string;
  /** The events it cares for (others are passed over). */
  accepts(event: LedgerEvent): event is E;
  /**
   * Handles one event inside the batch's transaction (a savepoint of it). An error is logged and the
   * event passed over, so one bad event never stops the others; the database failing fails the batch,
   * which is read again.
   */
  handle(tx: Tx, event: E, recorded: RecordedEvent<E>): Promise<void>;
  /** Events per transaction. */
  batch?: number;
}

export interface LedgerOptions {
  /** A pass of every reader at least this often (a wake-up lost with its connection, a process gone). */
  pollMs?: number;
  /** Events older than this are deleted once every durable consumer has read them. */
  retentionMs?: number;
  log?: (message: string, error?: unknown) => void;
}

export interface Ledger {
  /** Every event recorded from now on, in order, in this process. Returns the function that stops. */
  follow(handle: (events: RecordedEvent[]) => void): () => void;
  /**
   * Told when the wake-up connection is lost (readers may be late until it is back: they read on the poll)
   * and when it listens again (they catch up at once).
   */
  watchGaps(onGap: (state: "lost" | "listening") => void): () => void;
  /** Starts a durable consumer in this process (it reads from where any process left it). */
  consume<E extends LedgerEvent>(options: ConsumerOptions<E>): Promise<void>;
  /** Resolves once every reader of this process has read what was recorded before the call. */
  settled(timeoutMs?: number): Promise<void>;
  /** Deletes what the retention lets go; returns how many events. */
  prune(): Promise<number>;
  stop(): Promise<void>;
}

type PassResult = "caught-up" | "held" | "more" | "busy";

/** Runs one reader's passes one at a time; a wake-up during a pass makes another pass after it. */
class Reader {
  private running: Promise<void> | null = null;
  private again = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private heldFor = 0;
  private stopped = false;
  /** The last pass that ended caught up, counted to tell `settled`. */
  finished = 0;
  started = 0;

  constructor(
    private readonly pass: () => Promise<PassResult>,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      this.started += 1;
      const startedAs = this.started;
      let result: PassResult;
      try {
        result = await this.pass();
      } catch (error) {
        if (!this.stopped) this.log("a ledger reader's pass failed; it reads again shortly", error);
        this.schedule(1000);
        return;
      }
      if (result === "more") this.again = true;
      else if (result === "busy") {
        // Another process works this consumer now: look again shortly (it may stop half-way).
        this.schedule(25);
      } else if (result === "held") {
        // A transaction still running may record before what is waiting: read again soon.
        this.heldFor = Math.min(Math.max(this.heldFor * 2, 5), 200);
        this.schedule(this.heldFor);
      } else {
        this.heldFor = 0;
        this.finished = startedAs;
      }
    } while (this.again && !this.stopped);
  }

  private schedule(ms: number): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.wake();
    }, ms);
    this.retry.unref?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.running;
  }
}

export async function startLedger(database: DatabaseHandle, options: LedgerOptions = {}): Promise<Ledger> {
  const { db } = database;
  const log = options.log ?? ((message, error) => console.error(message, error));
  const readers = new Set<Reader>();
  const wakeAll = () => {
    for (const reader of readers) reader.wake();
  };
  const gapWatchers = new Set<(state: "lost" | "listening") => void>();
  const unlisten = await database.listen(LEDGER_CHANNEL, wakeAll, (state) => {
    for (const watcher of gapWatchers) watcher(state);
    if (state === "listening") wakeAll();
  });
  const poll = setInterval(wakeAll, options.pollMs ?? 2000);
  poll.unref?.();
  const durable: string[] = [];

  const prune = async (): Promise<number> => {
    if (!options.retentionMs) return 0;
    const before = new Date(Date.now() - options.retentionMs).toISOString();
    const result = await db.execute(sql`
      delete from domain_events e
       where e.created_at < ${before}::timestamptz
         and not exists (select 1 from event_cursors c where (e.tx, e.id) > (c.tx, c.event_id))`);
    const counts = result as unknown as { rowCount?: number | null; affectedRows?: number };
    return counts.rowCount ?? counts.affectedRows ?? 0;
  };
  const pruning = setInterval(
    () => void prune().catch((error: unknown) => log("could not prune the ledger", error)),
    10 * 60 * 1000,
  );
  pruning.unref?.();

  const ledger: Ledger = {
    follow(handle) {
      let cursor: Cursor | null = null;
      const reader = new Reader(async () => {
        cursor ??= await horizon(db);
        const { events, held } = await readAfter(db, cursor, 500);
        const last = events.at(-1);
        if (last) {
          cursor = { tx: last.tx, id: last.id };
          try {
            handle(events);
          } catch (error) {
            log("a ledger follower failed on its events", error);
          }
        }
        return events.length === 500 ? "more" : held ? "held" : "caught-up";
      }, log);
      readers.add(reader);
      reader.wake();
      return () => {
        readers.delete(reader);
        void reader.stop();
      };
    },

    watchGaps(onGap) {
      gapWatchers.add(onGap);
      return () => gapWatchers.delete(onGap);
    },

    async consume<E extends LedgerEvent>(consumer: ConsumerOptions<E>) {
      const { name, batch = 100 } = consumer;
      await db.execute(sql`insert into event_cursors (consumer) values (${name}) on conflict do nothing`);
      durable.push(name);
      // Idle, a pass is one statement: a transaction (and the advisory lock) only when there is something
      // after the consumer's cursor.
      const pending = async () => {
        // The first event after the cursor, found through the (tx, id) index: a join with the row comparison
        // as its filter read the whole table on every wake (10 ms at 50,000 events, 0.04 ms this way).
        const result = await db.execute<{ pending: boolean }>(sql`
          select exists (
            select 1 from event_cursors c
             cross join lateral (
               select 1 from domain_events e
                where (e.tx, e.id) > (c.tx, c.event_id)
                order by e.tx, e.id
                limit 1) as next
             where c.consumer = ${name}) as pending`);
        return (result as unknown as { rows: { pending: boolean }[] }).rows[0]?.pending ?? true;
      };
      const reader = new Reader(
        async () =>
          !(await pending())
            ? "caught-up"
            : db.transaction(async (tx) => {
                // One process per consumer at a time; the lock ends with the transaction (or its connection).
                const locked = await tx.execute<{ locked: boolean }>(
                  sql`select pg_try_advisory_xact_lock(hashtextextended(${`ledger:${name}`}, 0)) as locked`,
                );
                if (!(locked as unknown as { rows: { locked: boolean }[] }).rows[0]?.locked) return "busy";
                const at = await tx.execute<{ tx: string; event_id: string | number }>(
                  sql`select tx::text as tx, event_id from event_cursors where consumer = ${name}`,
                );
                const [row] = (at as unknown as { rows: { tx: string; event_id: string | number }[] }).rows;
                const cursor: Cursor = { tx: row?.tx ?? "0", id: Number(row?.event_id ?? 0) };
                const { events, held } = await readAfter(tx, cursor, batch);
                const last = events.at(-1);
                if (!last) return held ? "held" : "caught-up";
                for (const recorded of events) {
                  if (!consumer.accepts(recorded.event)) continue;
                  try {
                    await tx.transaction((savepoint) =>
                      consumer.handle(savepoint, recorded.event as E, recorded as RecordedEvent<E>),
                    );
                  } catch (error) {
                    log(
                      `ledger consumer "${name}" passed over event ${recorded.id} (${recorded.event.type})`,
                      error,
                    );
                  }
                }
                await tx.execute(
                  sql`update event_cursors set tx = ${last.tx}::xid8, event_id = ${last.id}, updated_at = now()
                   where consumer = ${name}`,
                );
                return events.length === batch ? "more" : held ? "held" : "caught-up";
              }),
        log,
      );
      readers.add(reader);
      reader.wake();
    },

    async settled(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      const marks = new Map([...readers].map((reader) => [reader, reader.started]));
      wakeAll();
      for (const [reader, mark] of marks) {
        while (reader.finished <= mark) {
          if (Date.now() > deadline) throw new Error("the ledger's readers did not catch up in time");
          reader.wake();
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    },

    prune,

    async stop() {
      clearInterval(poll);
      clearInterval(pruning);
      await unlisten();
      await Promise.all([...readers].map((reader) => reader.stop()));
      readers.clear();
    },
  };
  return ledger;
}
