/**
 * npm run bench:analytics — what an analytics event costs the request that causes it (issue #34: ≤ 1 ms).
 *
 * A request pays for an event only by recording it in the ledger inside its own transaction (a project
 * created records `project.created`; a browser report is that one row); the analytics consumer writes the
 * `analytics_events` row after the response. So the cost is measured where it is paid: the same write
 * transaction (a project row inserted, as creating a project does) with and without the event recorded,
 * alternated in one run on one PostgreSQL database, with the analytics consumer reading meanwhile as it
 * does in the app. Baseline: the transaction without the event.
 */
import { eq, sql } from "drizzle-orm";
import { openDatabase } from "../../apps/server/src/db/index.ts";
import { analyticsEvents, projects, users } from "../../apps/server/src/db/schema/index.ts";
import { newId } from "../../apps/server/src/lib/ids.ts";
import { record, startLedger } from "../../apps/server/src/lib/ledger.ts";
import { handleAnalyticsEvent } from "../../apps/server/src/modules/analytics/analytics.consumer.ts";
import { percentile, writeSection } from "../lib/report.ts";
import { scratchDatabase } from "../lib/server.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 600);

const scratch = await scratchDatabase();
try {
  const database = await openDatabase({ databaseUrl: scratch.url, pgliteDir: "memory://" });
  const { db } = database;
  const ownerId = newId();
  await db.insert(users).values({ id: ownerId, email: `bench-${ownerId}@example.com`, displayName: "Bench" });
  const ledger = await startLedger(database);
  const noQueue = { config: { productAnalytics: null }, queue: null } as never;
  await ledger.consume({
    name: "analytics",
    accepts: (event): event is never => event.type === "project.created",
    handle: (tx, event, recorded) => handleAnalyticsEvent(noQueue, tx, event, recorded.createdAt),
  });

  const write = async (withEvent: boolean) => {
    const started = performance.now();
    await db.transaction(async (tx) => {
      const [owner] = await tx.select().from(users).where(eq(users.id, ownerId)).for("update");
      const id = newId();
      await tx.insert(projects).values({ id, title: "Bench", type: "web", ownerId: owner!.id });
      if (withEvent)
        await record(tx, {
          type: "project.created",
          projectId: id,
          projectType: "web",
          actor: { userId: ownerId },
        });
    });
    return performance.now() - started;
  };
  for (let i = 0; i < 50; i++) await write(i % 2 === 0); // warm-up
  const bare: number[] = [];
  const counted: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(await write(false));
    counted.push(await write(true));
  }
  await ledger.settled(30_000);
  const [{ rows } = { rows: 0 }] = await db
    .select({ rows: sql<number>`count(*)::int` })
    .from(analyticsEvents)
    .where(eq(analyticsEvents.name, "NewProject"));
  await ledger.stop();
  await database.close();

  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const cost = mean(counted) - mean(bare);
  const costP50 = percentile(counted, 50) - percentile(bare, 50);
  const ms = (value: number) => `${value.toFixed(3)} ms`;
  const body = `\`npm run bench:analytics\` — ${ROUNDS} write transactions of each kind, alternated, on one PostgreSQL
database (loopback), the analytics consumer reading the ledger meanwhile. Each creates a project as the app
does (the owner's row locked, the project inserted); the counted one also records \`project.created\`, from
which the consumer wrote ${rows} NewProject rows after the fact.

| Transaction | mean | p50 | p95 | ÷ baseline (mean) |
| --- | --- | --- | --- | --- |
| Project created, no event (baseline) | ${ms(mean(bare))} | ${ms(percentile(bare, 50))} | ${ms(percentile(bare, 95))} | 1.00× |
| Project created + its analytics event | ${ms(mean(counted))} | ${ms(percentile(counted, 50))} | ${ms(percentile(counted, 95))} | ${(mean(counted) / mean(bare)).toFixed(2)}× |

An event costs the request ${ms(cost)} on the mean (${ms(costP50)} at p50). Goal ≤ 1 ms — ${cost <= 1 ? "met" : "not met"}.`;
  console.log(body);
  if (!process.env.BENCH_NO_WRITE)
    await writeSection("Analytics: an event's cost to its request (#34)", body);
} finally {
  await scratch.drop();
}
