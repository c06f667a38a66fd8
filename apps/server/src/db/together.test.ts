import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase, drivers } from "../testing/test-db.ts";
import { openDatabase } from "./index.ts";
import { together } from "./together.ts";

describe.each(drivers())("reads together on %s", (driver) => {
  const opened: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const handle of opened) await handle.close();
  });
  const open = async () => {
    const test = await createTestDatabase(driver);
    const handle = await openDatabase(test);
    opened.push({
      async close() {
        await handle.close();
        await test.release();
      },
    });
    return handle.db;
  };

  /** Two reads, each telling when it started and whether the other was running then. */
  const tracked = (db: Parameters<typeof together>[0]) => {
    let running = 0;
    let overlapped = false;
    const read = (value: number) => async () => {
      running += 1;
      if (running > 1) overlapped = true;
      try {
        const result = (await db.execute(sql`select ${value}::int as value, pg_sleep(0.05)`)) as {
          rows: { value: number }[];
        };
        return Number(result.rows[0]?.value);
      } finally {
        running -= 1;
      }
    };
    return { reads: [read(1), read(2)] as const, overlapped: () => overlapped };
  };

  it("runs them side by side on the pool, one after another in a transaction, in their order", async () => {
    const db = await open();
    const onPool = tracked(db);
    expect(await together(db, onPool.reads)).toEqual([1, 2]);
    expect(onPool.overlapped()).toBe(true);

    const inTransaction = await db.transaction(async (tx) => {
      const run = tracked(tx);
      return { values: await together(tx, run.reads), overlapped: run.overlapped() };
    });
    expect(inTransaction).toEqual({ values: [1, 2], overlapped: false });
  });
});
