/**
 * The second process of `npm run bench:ledger`: follows the ledger (as every app process's realtime
 * fan-out does) or, for the baseline, LISTENs on a bare channel, and tells the parent the wall-clock
 * moment each event arrived.
 */
import pg from "pg";
import { openDatabase } from "../../apps/server/src/db/index.ts";
import { startLedger } from "../../apps/server/src/lib/ledger.ts";

const [databaseUrl, mode] = process.argv.slice(2) as [string, "ledger" | "notify"];
const now = () => performance.timeOrigin + performance.now();
const send = (message: unknown) => process.send?.(message);

if (mode === "notify") {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  client.on("notification", (message) => send({ n: Number(message.payload), at: now() }));
  await client.query("LISTEN bench_bare");
} else {
  const database = await openDatabase({ databaseUrl, pgliteDir: "memory://" });
  const ledger = await startLedger(database, { log: () => {} });
  ledger.follow((events) => {
    const at = now();
    for (const { event } of events) if (event.type === "bench.event") send({ n: event.n, at });
  });
  await ledger.settled();
}
send({ ready: true });
