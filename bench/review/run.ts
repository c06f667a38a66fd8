/**
 * npm run bench:review — the review page of a version with 10,000 comments (issue #35).
 *
 * 1. Navigation → the comments panel showing its first entries, and → the first pins drawn on the version,
 *    p50/p95 over several loads of the review page (comment mode) as its owner, against the same page with 10
 *    comments in the same run (goal: ≤ 1 s at 10,000). The longest main-thread task of each load is kept too.
 * 2. Main-thread long tasks while a person wheel-scrolls the comments panel to its end, at 10,000 and at 10.
 * 3. A link to a comment far down (`?id=`): navigation → its thread open and its pin drawn.
 * The version is an uploaded image (its pins are the app's own, position-layer.tsx); a tenth of the comments
 * have two replies, a quarter are resolved; they are seeded straight into the database. The real server
 * process on a scratch PostgreSQL database; Debian's Chromium through playwright-core. `BENCH_PROFILE=1`
 * profiles one load at 10,000 instead (profile.ts).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import sharp from "sharp";
import type { ApiClient } from "../../apps/server/src/testing/http-client.ts";
import { percentile, writeSection } from "../lib/report.ts";
import { scratchDatabase, signUp, startServer } from "../lib/server.ts";
import { mainThreadCpu } from "../lib/trace.ts";
import { profileLoad } from "./profile.ts";

const BIG = 10_000;
const SMALL = 10;
const LOADS = Number(process.env.BENCH_LOADS ?? 7);

interface Seeded {
  projectId: string;
  pageId: string;
  versionId: string;
}

/** An image project whose one version holds `total` comments (creation order = numbers 1…total). */
async function seedVersion(owner: ApiClient, db: pg.Client, ownerId: string, total: number): Promise<Seeded> {
  const projectId = (await owner.post("/api/projects", { title: `Review of ${total}`, type: "image" })).body
    .data.id as string;
  const image = await sharp({ create: { width: 1280, height: 4000, channels: 3, background: "#e8eef8" } })
    .png()
    .toBuffer();
  const uploaded = await owner.upload(`/api/projects/${projectId}/uploads`, {
    name: "mock.png",
    type: "image/png",
    bytes: image,
  });
  if (uploaded.status !== 201) throw new Error(`upload answered ${uploaded.status}`);
  const { pageId, versionId } = uploaded.body.data as { pageId: string; versionId: string };
  await db.query(
    `insert into comments (id, project_id, page_id, version_id, target, device_size, device_width,
                           is_resolved, resolved_by, created_at, modified_at)
     select $3 || '-c' || g, $1, $2, $3,
            jsonb_build_object('kind', 'image-point', 'point',
              jsonb_build_object('x', ((g * 37) % 997) / 997.0, 'y', ((g * 61) % 991) / 991.0)),
            'default', 1280, g % 4 = 0, case when g % 4 = 0 then $4 end,
            now() - make_interval(secs => $5::int - g), now() - make_interval(secs => $5::int - g)
     from generate_series(1, $5::int) g`,
    [projectId, pageId, versionId, ownerId, total],
  );
  await db.query(
    `insert into comment_entries (id, comment_id, user_id, body, created_at)
     select id || '-e', id, $2, 'Comment ' || split_part(id, '-c', 2) || ': the heading needs more room above it',
            created_at
     from comments where version_id = $1`,
    [versionId, ownerId],
  );
  await db.query(
    `insert into comment_entries (id, comment_id, user_id, body, created_at)
     select $1 || '-c' || g || '-r' || r, $1 || '-c' || g, $2, 'Reply ' || r || ': agreed, moving it',
            now() - make_interval(secs => $3::int - g) + make_interval(secs => r)
     from generate_series(1, $3::int) g, generate_series(1, 2) r
     where g % 10 = 0`,
    [versionId, ownerId, total],
  );
  return { projectId, pageId, versionId };
}

/** Set before the app's scripts run: when the first comment card and the first pin appear (page time). */
function watchFirstDrawn() {
  const seen = window as unknown as { firstCard?: number; firstPin?: number };
  const observer = new MutationObserver(() => {
    if (seen.firstCard === undefined && document.querySelector(".comment-list .comment-card"))
      seen.firstCard = performance.now();
    if (seen.firstPin === undefined && document.querySelector(".position-layer .comment-pin"))
      seen.firstPin = performance.now();
    if (seen.firstCard !== undefined && seen.firstPin !== undefined) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
  const tasks: number[] = [];
  (window as unknown as { loadTasks: number[] }).loadTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  }).observe({ type: "longtask", buffered: true });
}

const reviewPath = (seeded: Seeded) =>
  `/project/${seeded.projectId}/${seeded.pageId}/${seeded.versionId}/comment`;

/** One load of the review page: navigation start → first card, → first pin; the longest task meanwhile. */
async function load(page: Page, url: string) {
  await page.goto(url);
  await page.waitForFunction(
    () => {
      const seen = window as unknown as { firstCard?: number; firstPin?: number };
      return seen.firstCard !== undefined && seen.firstPin !== undefined;
    },
    undefined,
    { timeout: 60_000, polling: 50 },
  );
  // A moment for the tasks that follow the first paint (a list drawn after the first rows) to be counted.
  await page.waitForTimeout(300);
  return page.evaluate(() => {
    const seen = window as unknown as { firstCard: number; firstPin: number; loadTasks: number[] };
    return {
      card: seen.firstCard,
      pin: seen.firstPin,
      longest: seen.loadTasks.length ? Math.max(...seen.loadTasks) : 0,
      cards: document.querySelectorAll(".comment-list .comment-card").length,
      pins: document.querySelectorAll(".position-layer .comment-pin").length,
      // BENCH_VERBOSE: every API read of the load, [path, start, end].
      api: performance
        .getEntriesByType("resource")
        .filter((item) => item.name.includes("/api/"))
        .map((item) => [
          item.name.replace(/^.*?\/api\//, "").replace(/[a-z0-9-]{20,}/gi, ":id"),
          Math.round(item.startTime),
          Math.round((item as PerformanceResourceTiming).responseEnd),
        ]),
      request: (() => {
        const entry = performance
          .getEntriesByType("resource")
          .find((item) => /\/api\/versions\/[^/]+\/comments$/.test(item.name)) as
          | PerformanceResourceTiming
          | undefined;
        return entry
          ? {
              start: entry.startTime,
              firstByte: entry.responseStart,
              end: entry.responseEnd,
              bytes: entry.encodedBodySize,
            }
          : null;
      })(),
    };
  });
}

async function loads(page: Page, url: string) {
  await load(page, url); // warms the server's comment cache and the browser's caches
  const runs = [];
  for (let round = 0; round < LOADS; round++) runs.push(await load(page, url));
  if (process.env.BENCH_VERBOSE) console.log(JSON.stringify(runs));
  return runs;
}

/** Long tasks (wall) and each task's CPU time while the panel is wheel-scrolled from its top to its end. */
async function scrollPanel(page: Page, url: string) {
  await page.goto(url);
  const list = page.getByRole("list", { name: "Comments" });
  await list.getByRole("listitem").first().waitFor();
  await page.waitForTimeout(500);
  await page.evaluate(() => {
    const store = window as unknown as { longTasks: number[] };
    store.longTasks = [];
    new PerformanceObserver((entries) => {
      for (const entry of entries.getEntries()) store.longTasks.push(entry.duration);
    }).observe({ type: "longtask" });
  });
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ["toplevel", "blink.user_timing"] });
  await page.evaluate(() => performance.mark("bench-review-start"));
  const box = (await page.locator(".activity__body").boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(300, box.height / 2));
  for (let step = 0; step < 40; step += 1) {
    await page.mouse.wheel(0, 1200);
    await page.waitForTimeout(16);
  }
  // Then straight to the end, as a scrollbar drag would.
  await page.locator(".activity__body").evaluate((body) => {
    body.scrollTop = body.scrollHeight;
  });
  await page.waitForTimeout(500);
  await page.evaluate(() => performance.mark("bench-review-end"));
  const tasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  const cpu = mainThreadCpu(
    JSON.parse((await browser.stopTracing()).toString("utf8")),
    "bench-review-start",
    "bench-review-end",
  );
  return {
    count: tasks.length,
    max: tasks.length ? Math.max(...tasks) : 0,
    over50: tasks.filter((d) => d > 50).length,
    cpuMax: cpu.length ? Math.max(...cpu) : 0,
    cpuOver50: cpu.filter((d) => d > 50).length,
  };
}

/** A link to comment `number`: navigation → its thread's heading, and → its pin scrolled into view. */
async function deepLink(page: Page, url: string, number: number) {
  await page.goto(url);
  const heading = page.getByRole("heading", { name: `Comment ${number}`, exact: true });
  await heading.waitFor({ timeout: 60_000 });
  const opened = await page.evaluate(() => performance.now());
  const pin = page.locator(".position-layer .comment-pin--selected");
  await pin.waitFor({ timeout: 60_000 });
  await page.waitForFunction(
    () => {
      const selected = document.querySelector(".position-layer .comment-pin--selected");
      if (!selected) return false;
      const box = selected.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    },
    undefined,
    { timeout: 60_000, polling: 50 },
  );
  return { opened, pinInView: await page.evaluate(() => performance.now()) };
}

async function signedInContext(context: BrowserContext, owner: ApiClient, serverUrl: string) {
  await context.addCookies(
    owner
      .cookieHeader()
      .split("; ")
      .map((pair) => {
        const [name, ...value] = pair.split("=");
        return { name: name!, value: value.join("="), url: serverUrl };
      }),
  );
}

async function main() {
  const database = await scratchDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-bench-review-"));
  const server = await startServer({ DATABASE_URL: database.url, DATA_DIR: dataDir });
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
  });
  try {
    const owner: ApiClient = await signUp(server);
    const ownerId = (await owner.get("/api/me")).body.data.uid as string;
    const small = await seedVersion(owner, db, ownerId, SMALL);
    const big = await seedVersion(owner, db, ownerId, BIG);

    // The API alone: the first read (database) and a repeated one (the server's cache), and its size.
    const apiTimes = async (seeded: Seeded, query = "") => {
      const times: number[] = [];
      let bytes = 0;
      let sent = 0;
      for (let round = 0; round < 5; round++) {
        const started = performance.now();
        const response = await fetch(`${server.url}/api/versions/${seeded.versionId}/comments${query}`, {
          headers: { cookie: owner.cookieHeader(), "accept-encoding": "gzip, br" },
        });
        bytes = (await response.arrayBuffer()).byteLength;
        sent = Number(response.headers.get("content-length") ?? bytes);
        times.push(performance.now() - started);
      }
      return { first: times[0]!, repeated: percentile(times.slice(1), 50), bytes, sent };
    };
    // The review page's first page (comment-queries.ts FIRST_COMMENTS), read before the list is kept.
    const apiFirst = await apiTimes(big, "?first=50");
    const apiSmall = await apiTimes(small);
    const apiBig = await apiTimes(big);
    const apiFirstKept = await apiTimes(big, "?first=50");

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await signedInContext(context, owner, server.url);
    await context.addInitScript(watchFirstDrawn);
    const page = await context.newPage();
    if (process.env.BENCH_PROFILE) {
      await load(page, `${server.url}${reviewPath(big)}`); // warms the caches
      console.log(await profileLoad(page, `${server.url}${reviewPath(big)}`));
      return;
    }
    const baseline = await loads(page, `${server.url}${reviewPath(small)}`);
    const loaded = await loads(page, `${server.url}${reviewPath(big)}`);
    const scrollSmall = await scrollPanel(page, `${server.url}${reviewPath(small)}`);
    const scrollBig = await scrollPanel(page, `${server.url}${reviewPath(big)}`);
    const target = BIG - 500;
    const link = await deepLink(
      page,
      `${server.url}${reviewPath(big)}?id=${big.versionId}-c${target}`,
      target,
    );

    const ms = (value: number) => `${Math.round(value)} ms`;
    const stat = (
      runs: { card: number; pin: number; longest: number }[],
      key: "card" | "pin" | "longest",
    ) => {
      const values = runs.map((run) => run[key]);
      return { p50: percentile(values, 50), p95: percentile(values, 95) };
    };
    const row = (label: string, runs: Awaited<ReturnType<typeof loads>>) => {
      const [card, pin, longest] = [stat(runs, "card"), stat(runs, "pin"), stat(runs, "longest")];
      const last = runs.at(-1)!;
      return `| ${label} | ${ms(card.p50)} | ${ms(card.p95)} | ${ms(pin.p50)} | ${ms(pin.p95)} | ${ms(longest.p50)} | ${last.cards} | ${last.pins} |`;
    };
    const bigCard = stat(loaded, "card").p95;
    const bigPin = stat(loaded, "pin").p95;
    const met = Math.max(bigCard, bigPin) <= 1000;
    const scrollRow = (label: string, s: Awaited<ReturnType<typeof scrollPanel>>) =>
      `| ${label} | ${s.count} | ${ms(s.max)} | ${s.over50} | ${ms(s.cpuMax)} | ${s.cpuOver50} |`;
    const body = `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:review\` on this machine (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}): the real server on PostgreSQL, Debian's Chromium at 1440×900, the review page of an image version in comment mode as its owner; ${LOADS} loads each after one warm-up, times from navigation start (page time).

| Version | First comment card p50 | p95 | First pin p50 | p95 | Longest task during the load, p50 | Cards in the DOM | Pins in the DOM |
|---|---|---|---|---|---|---|---|
${row(`${SMALL} comments (baseline)`, baseline)}
${row(`${BIG.toLocaleString("en")} comments`, loaded)}

Goal: the list (and the pins) shown ≤ 1 s at 10,000 comments — **${met ? "met" : "not met"}** (p95 ${ms(Math.max(bigCard, bigPin))}, ${(Math.max(bigCard, bigPin) / Math.max(stat(baseline, "card").p95, stat(baseline, "pin").p95)).toFixed(2)}× the baseline's).

| GET /api/versions/:id/comments (brotli accepted) | First read (database) | Repeated (server cache), p50 | JSON bytes | Bytes sent |
|---|---|---|---|---|
| ${SMALL} comments | ${ms(apiSmall.first)} | ${ms(apiSmall.repeated)} | ${apiSmall.bytes.toLocaleString("en")} | ${apiSmall.sent.toLocaleString("en")} |
| ${BIG.toLocaleString("en")} comments | ${ms(apiBig.first)} | ${ms(apiBig.repeated)} | ${apiBig.bytes.toLocaleString("en")} | ${apiBig.sent.toLocaleString("en")} |
| ${BIG.toLocaleString("en")} comments, \`?first=50\` | ${ms(apiFirst.first)} (list not kept) | ${ms(apiFirstKept.repeated)} (sliced from the kept list) | ${apiFirst.bytes.toLocaleString("en")} | ${apiFirst.sent.toLocaleString("en")} |

| Wheel-scrolling the comments panel to its end | Long tasks | Longest | Over 50 ms | Longest task's CPU time | Tasks with over 50 ms of CPU |
|---|---|---|---|---|---|
${scrollRow(`${SMALL} comments (baseline)`, scrollSmall)}
${scrollRow(`${BIG.toLocaleString("en")} comments`, scrollBig)}

A link to comment ${target.toLocaleString("en")} (\`?id=\`): its thread open ${ms(link.opened)} after navigation start, its pin scrolled into view ${ms(link.pinInView)}.`;
    console.log(body);
    if (process.env.BENCH_WRITE !== "false")
      await writeSection("Review page with 10,000 comments (#35)", body);
  } finally {
    await browser.close();
    await db.end();
    await new Promise((resolve) => {
      server.process.once("exit", resolve);
      server.process.kill();
    });
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
