import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../db/index.ts";
import { createTestDatabase, drivers, type TestDatabase, type TestDriver } from "../testing/test-db.ts";
import { type Ledger, type LedgerEvent, type RecordedEvent, record, startLedger } from "./ledger.ts";

interface Numbered extends LedgerEvent {
  type: "test.numbered";
  n: number;
}
const isNumbered = (event: LedgerEvent): event is Numbered => event.type === "test.numbered";

const opened: { stop(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.stop();
});

async function open(test: TestDatabase): Promise<DatabaseHandle> {
  const handle = await openDatabase(test);
  opened.push({ stop: () => handle.close() });
  return handle;
}

async function ledgerOn(handle: DatabaseHandle, options: { pollMs?: number; retentionMs?: number } = {}) {
  const ledger = await startLedger(handle, { ...options, log: () => {} });
  opened.push({ stop: () => ledger.stop() });
  return ledger;
}

async function fresh(driver: TestDriver) {
  const test = await createTestDatabase(driver);
  opened.push({ stop: () => test.release() });
  return test;
}

/** A table the test consumers write to: what a consumer did in the database, one row per handling. */
async function handledTable(handle: DatabaseHandle) {
  await handle.db.execute(sql`create table if not exists handled (n int not null, by text not null)`);
  return async () => {
    const { rows } = (await handle.db.execute(sql`select n, by from handled order by n`)) as unknown as {
      rows: { n: number; by: string }[];
    };
    return rows;
  };
}

function countingConsumer(ledger: Ledger, name: string, by: string, failOn?: number) {
  return ledger.consume<Numbered>({
    name,
    accepts: isNumbered,
    handle: async (tx, event) => {
      if (event.n === failOn) throw new Error("a bad event");
      await tx.execute(sql`insert into handled (n, by) values (${event.n}, ${by})`);
    },
  });
}

describe.each(drivers())("the ledger (%s)", (driver) => {
  it("reads what committed, in order, and never what rolled back", async () => {
    const handle = await open(await fresh(driver));
    const ledger = await ledgerOn(handle);
    const seen: RecordedEvent[] = [];
    ledger.follow((events) => seen.push(...events));
    await ledger.settled();
    await handle.db.transaction(async (tx) => {
      await record(tx, { type: "test.numbered", n: 1 });
      await record(tx, { type: "test.numbered", n: 2 });
    });
    await handle.db
      .transaction(async (tx) => {
        await record(tx, { type: "test.numbered", n: 99 });
        throw new Error("rolled back");
      })
      .catch(() => {});
    await handle.db.transaction((tx) => record(tx, { type: "test.numbered", n: 3, big: "x".repeat(20_000) }));
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(3);
    expect(seen.map(({ event }) => event.n)).toEqual([1, 2, 3]);
    // Any size: the event is a row, the wake-up carries nothing.
    expect(String(seen[2]!.event.big).length).toBe(20_000);
  });

  it("hands each event to a durable consumer once, picks up where it was left after a restart, and passes over one that fails", async () => {
    const test = await fresh(driver);
    let handle = await open(test);
    const handled = await handledTable(handle);
    let ledger = await ledgerOn(handle);
    await countingConsumer(ledger, "counting", "first", 3);
    for (let n = 1; n <= 5; n++)
      await handle.db.transaction((tx) => record(tx, { type: "test.numbered", n }));
    await ledger.settled();
    expect((await handled()).map((row) => row.n)).toEqual([1, 2, 4, 5]);
    if (driver === "pglite") return; // one process per embedded database: the restart below is PostgreSQL's
    await ledger.stop();
    // Written while no consumer runs (the process is down): read by the next one.
    for (let n = 6; n <= 8; n++)
      await handle.db.transaction((tx) => record(tx, { type: "test.numbered", n }));
    handle = await open(test);
    ledger = await ledgerOn(handle);
    await countingConsumer(ledger, "counting", "second");
    await ledger.settled();
    expect(await handled()).toEqual([
      ...[1, 2, 4, 5].map((n) => ({ n, by: "first" })),
      ...[6, 7, 8].map((n) => ({ n, by: "second" })),
    ]);
  });

  it("opens no transaction for a consumer while there is nothing after its cursor", async () => {
    const handle = await open(await fresh(driver));
    const handled = await handledTable(handle);
    let transactions = 0;
    const transaction = handle.db.transaction.bind(handle.db);
    handle.db.transaction = ((run, config) => {
      transactions += 1;
      return transaction(run, config);
    }) as typeof handle.db.transaction;
    const ledger = await ledgerOn(handle, { pollMs: 10 });
    await countingConsumer(ledger, "idle", "idle");
    await ledger.settled();
    await new Promise((resolve) => setTimeout(resolve, 150)); // about fifteen polls
    expect(transactions).toBe(0);
    await handle.db.transaction((tx) => record(tx, { type: "test.numbered", n: 1 }));
    await ledger.settled();
    expect((await handled()).map((row) => row.n)).toEqual([1]);
    expect(transactions).toBeGreaterThanOrEqual(2); // the write's, and the consumer's
  });

  it("keeps events a consumer has not read, and lets go of the rest after the retention", async () => {
    const handle = await open(await fresh(driver));
    const ledger = await ledgerOn(handle, { retentionMs: 60_000 });
    await handle.db.execute(sql`insert into event_cursors (consumer) values ('behind')`);
    await handle.db.transaction((tx) => record(tx, { type: "test.numbered", n: 1 }));
    await handle.db.execute(sql`update domain_events set created_at = now() - interval '2 minutes'`);
    expect(await ledger.prune()).toBe(0);
    await handle.db.execute(
      sql`update event_cursors set (tx, event_id) = (select tx, id from domain_events) where consumer = 'behind'`,
    );
    expect(await ledger.prune()).toBe(1);
  });
});

/** The numbers of the `test.numbered` events a follower of `ledger` hears, in order. */
function followNumbered(ledger: Ledger): number[] {
  const seen: number[] = [];
  ledger.follow((events) =>
    seen.push(...events.filter((e) => isNumbered(e.event)).map((e) => e.event.n as number)),
  );
  return seen;
}

/** Opens a transaction on `handle`, runs `begin` in it, and keeps it open until `release()`. */
async function openTransaction(
  handle: DatabaseHandle,
  begin: (tx: Parameters<Parameters<DatabaseHandle["db"]["transaction"]>[0]>[0]) => Promise<unknown>,
): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const done = handle.db.transaction(async (tx) => {
    await begin(tx);
    started();
    await held;
  });
  await running;
  return {
    async release() {
      release();
      await done;
    },
  };
}

describe.runIf(drivers().includes("postgres"))("the ledger across processes (postgres)", () => {
  it("loses no event when transactions commit out of the order they recorded in", async () => {
    const test = await fresh("postgres");
    const writer = await open(test);
    const reader = await open(test);
    const ledger = await ledgerOn(reader);
    const seen = followNumbered(ledger);
    await ledger.settled();
    // The first to record commits last: its event has the smaller id, and must not be passed over.
    const slow = await openTransaction(writer, (tx) => record(tx, { type: "test.numbered", n: 1 }));
    await writer.db.transaction((tx) => record(tx, { type: "test.numbered", n: 2 }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([]);
    await slow.release();
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(2);
    expect(seen).toEqual([1, 2]);
  });

  it("is not held back by a long transaction of another database on the same server", async () => {
    const elsewhere = await open(await fresh("postgres"));
    const test = await fresh("postgres");
    const handle = await open(test);
    const ledger = await ledgerOn(handle);
    const seen = followNumbered(ledger);
    await ledger.settled();
    // Another database's transaction, started first and holding an id, stays open while this one records.
    const long = await openTransaction(elsewhere, (tx) => tx.execute(sql`select pg_current_xact_id()`));
    await handle.db.transaction((tx) => record(tx, { type: "test.numbered", n: 1 }));
    try {
      await expect.poll(() => seen, { timeout: 5_000 }).toEqual([1]);
    } finally {
      await long.release();
    }
  });

  it("one consumer, two processes: every event handled exactly once", async () => {
    const test = await fresh("postgres");
    const a = await open(test);
    const b = await open(test);
    const handled = await handledTable(a);
    const ledgers = [await ledgerOn(a), await ledgerOn(b)];
    await countingConsumer(ledgers[0]!, "shared", "a");
    await countingConsumer(ledgers[1]!, "shared", "b");
    await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        (index % 2 ? a : b).db.transaction((tx) => record(tx, { type: "test.numbered", n: index + 1 })),
      ),
    );
    for (const ledger of ledgers) await ledger.settled();
    const rows = await handled();
    expect(rows.map((row) => row.n)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
  });
});
