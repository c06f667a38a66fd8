/**
 * npm run bench:reliability — what survives a crash.
 *
 * Crash section: N rounds per database (PGlite, and PostgreSQL at BENCH_DATABASE_URL / TEST_DATABASE_URL
 * / the local default) of crashRound(): the real server takes concurrent writes, is killed with -9
 * mid-stream and restarted on the same data. Reported: acknowledged writes lost, torn files left
 * (empty, or bytes that do not hash to their content-addressed name), and the time from the kill to
 * the restarted server answering. BENCH_ROUNDS sets N (default 3).
 *
 * Fuzz section: FUZZ_REQUESTS (default 10,000) generated malformed requests per database against every
 * route of the registry as every kind of caller (`fuzzApp()` in apps/server/src/testing/fuzz.ts, which
 * fuzz.test.ts runs 250 times per database in `npm test`). Reported: requests, 5xx answers, refused
 * requests after which something stored had changed.
 */
import { crashRound } from "../../apps/server/src/testing/crash-round.ts";
import { fuzzApp } from "../../apps/server/src/testing/fuzz.ts";
import { startTestApp } from "../../apps/server/src/testing/test-app.ts";
import type { TestDriver } from "../../apps/server/src/testing/test-db.ts";
import { percentile, writeSection } from "../lib/report.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// createTestDatabase() makes a fresh PostgreSQL database on this server for every round.
process.env.TEST_DATABASE_URL ??=
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

interface CrashSummary {
  driver: TestDriver;
  acknowledged: number;
  lost: number;
  torn: number;
  orphans: number;
  restartMs: number[];
  examples: string[];
}

async function crashSection(): Promise<string> {
  const summaries: CrashSummary[] = [];
  for (const driver of ["pglite", "postgres"] as const) {
    const summary: CrashSummary = {
      driver,
      acknowledged: 0,
      lost: 0,
      torn: 0,
      orphans: 0,
      restartMs: [],
      examples: [],
    };
    for (let round = 1; round <= ROUNDS; round++) {
      const result = await crashRound({ driver });
      summary.acknowledged += result.acknowledged;
      summary.lost += result.lost.length;
      summary.torn += result.tornFiles.length;
      summary.orphans += result.orphanFiles.length;
      summary.restartMs.push(result.restartMs);
      summary.examples.push(
        ...result.lost,
        ...result.tornFiles,
        ...result.orphanFiles.map((f) => `orphan ${f}`),
      );
      console.log(
        `${driver} round ${round}: ${result.acknowledged} acknowledged, ${result.lost.length} lost, ` +
          `${result.tornFiles.length} torn, ${result.orphanFiles.length} orphans, restart ${result.restartMs} ms`,
      );
    }
    summaries.push(summary);
  }
  const rows = summaries.map(
    (s) =>
      `| ${s.driver} | ${ROUNDS} | ${s.acknowledged} | ${s.lost} | ${s.torn} | ${s.orphans} | ` +
      `${percentile(s.restartMs, 50)} | ${Math.max(...s.restartMs)} |`,
  );
  const examples = summaries.flatMap((s) => s.examples.slice(0, 5).map((e) => `- ${s.driver}: ${e}`));
  return [
    "Each round: 6 writers create projects, upload screenshots (stored files) and comment for ~3 s; the",
    "server is killed with -9 mid-stream and started again on the same data (`crashRound()` in",
    "`apps/server/src/testing/crash-round.ts`, also run once per database by `crash.test.ts`).",
    "Orphan files: stored files no row references once the restarted server's file collector (run with no",
    "grace period) has had its first pass.",
    "",
    "| database | rounds | acknowledged writes | lost | torn files | orphan files | restart p50 (ms) | restart max (ms) |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    ...(examples.length > 0 ? ["", "First problems seen:", ...examples] : []),
  ].join("\n");
}

const FUZZ_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);

async function fuzzSection(): Promise<string> {
  const rows: string[] = [];
  const examples: string[] = [];
  for (const driver of ["pglite", "postgres"] as const) {
    const t = await startTestApp({ driver, allowServerErrors: true });
    const started = performance.now();
    try {
      const result = await fuzzApp(t, { runs: FUZZ_REQUESTS });
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      rows.push(
        `| ${driver} | ${result.requests} | ${result.perOperation.size} | ${result.serverErrors.length} | ` +
          `${result.changedOnRefusal.length} | ${seconds} |`,
      );
      examples.push(
        ...[...result.serverErrors, ...result.changedOnRefusal].slice(0, 5).map((e) => `- ${driver}: ${e}`),
      );
      console.log(rows.at(-1));
    } finally {
      await t.close();
    }
  }
  return [
    "Generated malformed requests (hostile ids, NUL and lone surrogates, out-of-range and fractional numbers,",
    "wrong types, deep nesting, invalid JSON, broken multipart) to every route of the registry, as nobody, the",
    "owner, a viewer member and a link guest. Goal: 0 × 5xx in 10,000; a refused request changes nothing.",
    "",
    "| database | requests | routes reached | 5xx | refused but changed | seconds |",
    "|---|---|---|---|---|---|",
    ...rows,
    ...(examples.length > 0 ? ["", "First problems seen:", ...examples] : []),
  ].join("\n");
}

const only = process.env.BENCH_ONLY;
if (only !== "fuzz") {
  const crash = await crashSection();
  console.log(`\n${crash}`);
  await writeSection("Reliability: crash (kill -9)", crash);
}
if (only !== "crash") {
  const fuzz = await fuzzSection();
  console.log(`\n${fuzz}`);
  await writeSection("Reliability: malformed requests", fuzz);
}
