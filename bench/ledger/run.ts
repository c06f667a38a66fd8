/**
 * npm run bench:ledger — an event recorded by one process (its write committed) until a second process's
 * ledger reader has it: the path of every realtime event, notification and mail since the ledger (#28).
 *
 * Two real processes on one PostgreSQL database. Process A records one event per transaction (a write
 * with `record(tx, …)`), paced; process B follows the ledger and reports each arrival. Baseline in the
 * same run: the floor under it — a bare NOTIFY carrying the same number, committed by A and heard by a
 * LISTEN in B. Goal: p95 < 50 ms on loopback.
 */
import { fork } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../apps/server/src/db/index.ts";
import { record } from "../../apps/server/src/lib/ledger.ts";
import { percentile, writeSection } from "../lib/report.ts";
import { scratchDatabase } from "../lib/server.ts";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 400);
const PACE_MS = 5;
const here = path.dirname(fileURLToPath(import.meta.url));
const now = () => performance.timeOrigin + performance.now();

async function measure(databaseUrl: string, mode: "ledger" | "notify") {
  const child = fork(path.join(here, "follower.ts"), [databaseUrl, mode], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const arrivals = new Map<number, number>();
  await new Promise<void>((resolve) =>
    child.on("message", (message: { ready?: boolean; n?: number; at?: number }) => {
      if (message.ready) resolve();
      else arrivals.set(message.n!, message.at!);
    }),
  );
  const database = await openDatabase({ databaseUrl, pgliteDir: "memory://" });
  const committed = new Map<number, number>();
  for (let n = 1; n <= EVENTS; n++) {
    await database.db.transaction(async (tx) => {
      if (mode === "ledger") await record(tx, { type: "bench.event", n });
      else await tx.execute(sql`select pg_notify('bench_bare', ${String(n)})`);
    });
    committed.set(n, now());
    await sleep(PACE_MS);
  }
  const deadline = Date.now() + 10_000;
  while (arrivals.size < EVENTS && Date.now() < deadline) await sleep(20);
  child.kill();
  await database.close();
  const latencies = [...committed].flatMap(([n, at]) => (arrivals.has(n) ? [arrivals.get(n)! - at] : []));
  return { received: arrivals.size, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

const scratch = await scratchDatabase();
try {
  // The schema (and the ledger's tables) once, by the app's own migrations.
  await (await openDatabase({ databaseUrl: scratch.url, pgliteDir: "memory://" })).close();
  const bare = await measure(scratch.url, "notify");
  const ledger = await measure(scratch.url, "ledger");
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const body = `\`npm run bench:ledger\` — ${EVENTS} events, one per transaction, ${PACE_MS} ms apart; two processes on
one PostgreSQL database (loopback). Measured from the recording process's commit to the second process's
reader having the event (wall clock, same machine). Baseline in the same run: a bare NOTIFY committed by
the first process and heard by a LISTEN in the second — the floor every reader's wake-up stands on.

| Path | Received | p50 | p95 | p95 ÷ baseline |
| --- | --- | --- | --- | --- |
| Bare NOTIFY → LISTEN (baseline) | ${bare.received}/${EVENTS} | ${ms(bare.p50)} | ${ms(bare.p95)} | 1.00× |
| Ledger: record → second process's reader | ${ledger.received}/${EVENTS} | ${ms(ledger.p50)} | ${ms(ledger.p95)} | ${(ledger.p95 / bare.p95).toFixed(2)}× |

Goal: p95 < 50 ms — ${ledger.p95 < 50 ? "met" : "not met"}. The ledger adds one read of the table after each
wake-up (in (tx, id) order, below the oldest running transaction), which is what keeps an event sent while
a process was not listening.`;
  console.log(body);
  if (!process.env.BENCH_NO_WRITE)
    await writeSection("Ledger: recorded → a second process's reader (#28)", body);
} finally {
  await scratch.drop();
}
