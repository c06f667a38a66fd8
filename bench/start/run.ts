/**
 * Quick start (issue #35 item 6): how long `npm start` takes to serve (`/health/live` answers) on a tree
 * that has not changed since its last start, against the baseline in the same run — the former `npm start`
 * (`npm run build && npm run serve`: every package built on every start) — and `npm run serve` alone (no
 * build: the floor). Interleaved runs on one embedded database (made and migrated by the first start, as
on a developer's machine). Writes "## Quick start" in
 * docs/PERFORMANCE.md.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../apps/server/src/testing/test-app.ts";
import { percentile, repoRoot, writeSection } from "../lib/report.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_SECONDS = 10;

const COMMANDS = {
  "npm start, unchanged tree": ["npm", "start"],
  "npm run build && npm run serve (the former npm start)": ["sh", "-c", "npm run build && npm run serve"],
  "npm run serve (no build)": ["npm", "run", "serve"],
} as const;
type Label = keyof typeof COMMANDS;

/** Seconds from spawning the command until /health/live answers; the process group is stopped after. */
async function timeToServe(command: readonly string[], dataDir: string): Promise<number> {
  const port = await freePort();
  const contentPort = await freePort();
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: repoRoot,
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      CONTENT_PORT: String(contentPort),
      CAPTURE_WORKER: "false",
      LOG_LEVEL: "warn",
    },
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    for (;;) {
      const answered = await fetch(`http://localhost:${port}/health/live`).then(
        (response) => response.ok,
        () => false,
      );
      if (answered) return (performance.now() - started) / 1000;
      const code = await Promise.race([
        exited,
        new Promise((resolve) => setTimeout(resolve, 100, "running")),
      ]);
      if (code !== "running") throw new Error(`${command.join(" ")} exited (${code}) before serving`);
    }
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM");
    await exited;
  }
}

async function main() {
  // The first start after a clone (or any change) builds what changed and stamps it; the runs below
  // measure a start on that unchanged tree.
  console.log("first npm start (stamps the build)…");
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "bench-start-"));
  const first = await timeToServe(COMMANDS["npm start, unchanged tree"], dataDir);
  const times = new Map<Label, number[]>(Object.keys(COMMANDS).map((label) => [label as Label, []]));
  for (let run = 1; run <= RUNS; run++)
    for (const [label, command] of Object.entries(COMMANDS) as [Label, readonly string[]][]) {
      const seconds = await timeToServe(command, dataDir);
      times.get(label)!.push(seconds);
      console.log(`run ${run}: ${label}: ${seconds.toFixed(1)} s`);
    }
  await rm(dataDir, { recursive: true, force: true });
  const median = (label: Label) => percentile(times.get(label)!, 50);
  const quick = median("npm start, unchanged tree");
  const baseline = median("npm run build && npm run serve (the former npm start)");
  const floor = median("npm run serve (no build)");
  const rows = [...times.entries()].map(
    ([label, values]) =>
      `| ${label} | ${percentile(values, 50).toFixed(1)} | ${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)} | ${(percentile(values, 50) / baseline).toFixed(2)}× |`,
  );
  const load = os.loadavg()[0]!.toFixed(1);
  await writeSection(
    "Quick start",
    `Measured by \`npm run bench:start\` on ${new Date().toISOString().slice(0, 10)}; ${os.cpus().length} cores, Node ${process.version}, load average ${load} at the end. Time from starting the command to \`/health/live\` answering (embedded PGlite in one \`DATA_DIR\` the first start made, capture worker off), median of ${RUNS} interleaved runs after a first \`npm start\` (${first.toFixed(1)} s, which built what had changed and stamped it). \`npm start\` runs \`scripts/build-changed.mjs\`: a package is built again only when the hash of its sources, its workspace dependencies', the lockfile and \`tsconfig.base.json\` differs from the stamp of its last successful build, or its \`dist/\` is not what that build left.

| Command | Median (s) | Range (s) | ÷ former npm start |
|---|---:|---:|---:|
${rows.join("\n")}

Target: a second \`npm start\` on an unchanged tree serving in ≤ ${TARGET_SECONDS} s — ${quick <= TARGET_SECONDS ? "met" : "not met"} (${quick.toFixed(1)} s). \`npm run serve\` alone, with no build at all, took ${floor.toFixed(1)} s in the same runs: what remains of a second start is the server's own start-up (loading the TypeScript sources through tsx, opening the database, the queue), which the machine's load stretches.`,
  );
  console.log(
    `npm start unchanged: ${quick.toFixed(1)} s; former: ${baseline.toFixed(1)} s; serve: ${floor.toFixed(1)} s`,
  );
}

await main();
