import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cuttableProxy } from "../testing/cuttable-proxy.ts";
import { createTestDatabase, routeDrivers } from "../testing/test-db.ts";
import { openDatabase } from "./index.ts";

describe.skipIf(routeDrivers()[0] !== "postgres")("PostgreSQL connection lost mid-transaction", () => {
  it("fails the transaction's next statement, keeps the process up, and serves again once reachable", async () => {
    const database = await createTestDatabase("postgres");
    const direct = new URL(database.databaseUrl!);
    const proxy = await cuttableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(direct);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const handle = await openDatabase({ databaseUrl: viaProxy.toString(), pgliteDir: "memory://" });
    try {
      const transaction = handle.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        // The connection is checked out and idle between two statements when the server goes away:
        // the loss is heard by the client alone (an unhandled 'error' would end the process).
        await proxy.cut();
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.execute(sql`select 2`);
      });
      await expect(transaction).rejects.toThrow();
      await proxy.restore();
      await expect
        .poll(
          async () => ((await handle.executeSql("select 3 as n")).rows[0] as { n?: number } | undefined)?.n,
          {
            timeout: 10_000,
          },
        )
        .toBe(3);
    } finally {
      await handle.close();
      await proxy.cut();
      await database.release();
    }
    // Cloning the database takes seconds on a loaded machine.
  }, 60_000);
});
