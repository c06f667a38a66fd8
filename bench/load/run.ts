/**
 * npm run bench:load — many reviewers on one project for minutes (issue #35), and the soak at the same load.
 *
 * Two app processes on one PostgreSQL database, as behind Caddy. REVIEWERS members (default 500) are
 * connected to one project: one has the review page of an image open in Chromium, the others hold the
 * project's realtime socket, split between the two processes. The author posts a comment every second for
 * LOAD_MINUTES (default 5; `LOAD_MINUTES=30` is the soak) on the first process, and deletes it once drawn
 * (so the page keeps drawing element pins; comments, notifications and ledger events still pile up).
 *
 * Measured: post → pin drawn in the browser (p50 / p95), the servers' CPU per comment, each process's RSS
 * over the run (growth from the first to the last minute), and every error (a refused post, a pin never
 * drawn, a socket closed). Baseline in the same run: the same measure with only the browser's reviewer
 * connected, BASELINE_ROUNDS comments.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium, type Page } from "playwright-core";
import type WebSocket from "ws";
import type { ApiClient } from "../../apps/server/src/testing/http-client.ts";
import { percentile, writeSection } from "../lib/report.ts";
import { addImagePage, cookiesFor, joinedSocket } from "../lib/review.ts";
import { type Server, scratchDatabase, signUp, startServer } from "../lib/server.ts";

const REVIEWERS = Number(process.env.REVIEWERS ?? 500);
const LOAD_MINUTES = Number(process.env.LOAD_MINUTES ?? 5);
const BASELINE_ROUNDS = Number(process.env.BASELINE_ROUNDS ?? 30);
const DRAW_TIMEOUT_MS = 10_000;
const CLOCK_TICKS_PER_SECOND = 100;

/** A process's CPU time so far (user + system, ms) and resident memory (MB), from /proc. */
function usage(pid: number): { cpuMs: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of stat (utime, stime), counted from the state field (3) after the command name.
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return { cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_SECOND, rssMb: Number(rss?.[1] ?? 0) / 1024 };
}

const cpuOf = (servers: Server[]) =>
  servers.reduce((sum, server) => sum + usage(server.process.pid!).cpuMs, 0);

/** Runs `tasks` with at most `limit` at once. */
async function pool<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

interface Round {
  latencies: number[];
  cpuMs: number;
  refused: number;
  undrawn: number;
}

/**
 * Posts one comment per second for `rounds` rounds; each is timed from its POST until its pin is drawn in
 * `page`, then deleted (and its pin gone) before the next second begins.
 */
async function postEverySecond(
  servers: Server[],
  author: ApiClient,
  versionId: string,
  page: Page,
  rounds: number,
  onTick?: (round: number, sofar: Round) => void,
): Promise<Round> {
  const pins = page.locator(".comment-pin:not(.comment-pin--pending)");
  const result: Round = { latencies: [], cpuMs: 0, refused: 0, undrawn: 0 };
  const cpuBefore = cpuOf(servers);
  const start = performance.now();
  for (let round = 0; round < rounds; round++) {
    const due = start + round * 1000;
    if (performance.now() < due) await sleep(due - performance.now());
    onTick?.(round, result);
    const before = await pins.count();
    const started = performance.now();
    const posted = await author.post(`/api/versions/${versionId}/comments`, {
      comment: `Load ${round}`,
      dotPosition: { x: 0.1 + (round % 8) * 0.1, y: 0.5 },
      deviceWidth: 1280,
    });
    if (posted.status !== 201) {
      result.refused++;
      continue;
    }
    const drawn = await page
      .waitForFunction(
        (count) => document.querySelectorAll(".comment-pin:not(.comment-pin--pending)").length > count,
        before,
        { polling: "raf", timeout: DRAW_TIMEOUT_MS },
      )
      .then(
        () => true,
        () => false,
      );
    if (drawn) result.latencies.push(performance.now() - started);
    else result.undrawn++;
    // Deleting the first entry of a thread deletes the comment.
    const { id, thread } = posted.body.data as { id: string; thread: { id: string }[] };
    const removed = await author.delete(`/api/comments/${id}/entries/${thread[0]!.id}`);
    if (removed.status >= 300) result.refused++;
    await page
      .waitForFunction(
        (count) => document.querySelectorAll(".comment-pin:not(.comment-pin--pending)").length <= count,
        before,
        { polling: "raf", timeout: DRAW_TIMEOUT_MS },
      )
      .catch(() => undefined);
  }
  result.cpuMs = cpuOf(servers) - cpuBefore;
  return result;
}

const ms = (value: number) => value.toFixed(1);
const average = (values: number[]) =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

async function main() {
  const database = await scratchDatabase();
  const dataDirs = [
    await mkdtemp(path.join(os.tmpdir(), "redline-bench-")),
    await mkdtemp(path.join(os.tmpdir(), "redline-bench-")),
  ];
  const secret = randomBytes(32).toString("hex");
  const servers: Server[] = [];
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  const sockets: WebSocket[] = [];
  try {
    for (const dataDir of dataDirs)
      servers.push(await startServer({ DATABASE_URL: database.url, DATA_DIR: dataDir, AUTH_SECRET: secret }));
    const [first, second] = servers as [Server, Server];
    const author = await signUp(first);
    const projectId = (await author.post("/api/projects", { title: "Load" })).body.data.id as string;
    const { pageId, versionId } = await addImagePage(author, projectId);

    console.log(`signing up ${REVIEWERS} reviewers…`);
    const reviewers = await pool(REVIEWERS, 8, async (index) => {
      const reviewer = await signUp(index % 2 === 0 ? first : second);
      const email = (await reviewer.get("/api/me")).body.data.email as string;
      const added = await author.post(`/api/projects/${projectId}/members`, { email, access: "comment" });
      if (added.status >= 300) throw new Error(`adding a reviewer failed: ${added.status}`);
      return reviewer;
    });

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies(cookiesFor(reviewers[0]!, second.url));
    const page = await context.newPage();
    const joined = page.waitForEvent("websocket").then(
      (socket) =>
        new Promise<void>((resolve) =>
          socket.on("framereceived", (frame) => {
            if (String(frame.payload).includes('"joined"')) resolve();
          }),
        ),
    );
    // The browser's reviewer is on the second process: every comment crosses processes to reach it.
    await page.goto(`${second.url}/project/${projectId}/${pageId}/${versionId}/comment`);
    await page.locator(".image-view img").waitFor();
    await joined;
    await sleep(2000);

    console.log(`baseline: ${BASELINE_ROUNDS} comments, one reviewer connected…`);
    const baseline = await postEverySecond(servers, author, versionId, page, BASELINE_ROUNDS);

    console.log(`connecting ${REVIEWERS - 1} more reviewers…`);
    let closed = 0;
    let received = 0;
    for (const [index, reviewer] of reviewers.slice(1).entries()) {
      const socket = await joinedSocket(servers[index % 2]!.url, reviewer, projectId);
      socket.on("message", () => received++);
      socket.on("close", () => closed++);
      sockets.push(socket);
    }
    await sleep(2000);

    const rounds = LOAD_MINUTES * 60;
    const samples: { minute: number; rssMb: number[] }[] = [];
    console.log(`load: ${rounds} comments, ${REVIEWERS} reviewers connected…`);
    const load = await postEverySecond(servers, author, versionId, page, rounds, (round, sofar) => {
      if (round % 10 === 0)
        samples.push({
          minute: Math.floor(round / 60),
          rssMb: servers.map((server) => usage(server.process.pid!).rssMb),
        });
      if (round % 60 === 0 || process.env.BENCH_VERBOSE)
        console.log(
          `  minute ${round / 60}: ${received} socket messages, ${sofar.latencies.length} drawn (p95 ${ms(percentile(sofar.latencies, 95))} ms), ${sofar.undrawn} not drawn so far`,
        );
    });

    const rss = (minute: number) =>
      servers.map((_, index) =>
        average(samples.filter((sample) => sample.minute === minute).map((sample) => sample.rssMb[index]!)),
      );
    const firstMinute = rss(0);
    const lastMinute = rss(LOAD_MINUTES - 1);
    const growth = firstMinute.map((mb, index) => ((lastMinute[index]! - mb) / mb) * 100);
    const figures = (round: Round, count: number) => ({
      p50: percentile(round.latencies, 50),
      p95: percentile(round.latencies, 95),
      cpuPerComment: round.cpuMs / count,
    });
    const base = figures(baseline, BASELINE_ROUNDS);
    const loaded = figures(load, rounds);
    const errors = load.refused + load.undrawn + closed;
    console.log({ base, loaded, growth, errors, received });

    await writeSection(
      `Load: ${REVIEWERS} reviewers for ${LOAD_MINUTES} minutes`,
      `Measured ${new Date().toISOString().slice(0, 10)} by \`${LOAD_MINUTES === 5 ? "" : `LOAD_MINUTES=${LOAD_MINUTES} `}npm run bench:load\` on this project's 2-core machine (load average ${os.loadavg()[0]!.toFixed(1)} when it finished): two app processes on one PostgreSQL database, ${REVIEWERS} members of one project connected — one with the review page of an image open in Chromium on the second process, the others holding the realtime socket, split between the processes — while the author posts a comment every second on the first process (and deletes it once drawn). Baseline in the same run: ${BASELINE_ROUNDS} comments with only the browser's reviewer connected. Goals (issue #35): post → drawn p95 < 150 ms; RSS growth < 10 % over the soak (30 minutes); no error.

| | post → pin drawn p50 (ms) | p95 (ms) | servers' CPU per comment (ms) |
|---|---|---|---|
| 1 reviewer (baseline) | ${ms(base.p50)} | ${ms(base.p95)} | ${ms(base.cpuPerComment)} |
| ${REVIEWERS} reviewers | ${ms(loaded.p50)} | ${ms(loaded.p95)} | ${ms(loaded.cpuPerComment)} |
| ratio | ${(loaded.p50 / base.p50).toFixed(2)}× | ${(loaded.p95 / base.p95).toFixed(2)}× | ${(loaded.cpuPerComment / base.cpuPerComment).toFixed(1)}× |

RSS per process, first minute → last minute: ${firstMinute.map((mb, index) => `${mb.toFixed(0)} → ${lastMinute[index]!.toFixed(0)} MB (${growth[index]! >= 0 ? "+" : ""}${growth[index]!.toFixed(1)} %)`).join("; ")}.
Errors: ${load.refused} refused writes, ${load.undrawn} pins not drawn within ${DRAW_TIMEOUT_MS / 1000} s, ${closed} sockets closed; ${received} socket messages delivered to the ${REVIEWERS - 1} sockets.`,
    );
  } finally {
    for (const socket of sockets) socket.terminate();
    await browser.close();
    for (const server of servers) server.process.kill();
    await sleep(300);
    await database.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  }
}

await main();
