/**
 * npm run bench:notifications — how fast a notification reaches its person's screen (issue #16: event →
 * toast in a second browser, p95 on loopback, goal < 500 ms).
 *
 * The app runs as a server process on PostgreSQL. One person is signed in in Chromium on /projects; another
 * posts comments that mention them (a mention is never folded into an earlier notification, so each is a
 * toast of its own). Timed: the POST's start until the toast is on screen.
 *
 * Baseline in the same run, same browser: a bare `ws` server that, on an HTTP POST, pushes one message to a
 * page that draws it — the floor of "a request here, something on screen there" on this machine.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import sharp from "sharp";
import { WebSocketServer } from "ws";
import type { ApiClient } from "../../apps/server/src/testing/http-client.ts";
import { freePort } from "../../apps/server/src/testing/test-app.ts";
import { percentile, writeSection } from "../lib/report.ts";
import { scratchDatabase, signUp, startServer } from "../lib/server.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

interface Figures {
  p50: number;
  p95: number;
}

const figures = (latencies: number[]): Figures => ({
  p50: percentile(latencies, 50),
  p95: percentile(latencies, 95),
});

async function asCookies(client: ApiClient, url: string) {
  return client
    .cookieHeader()
    .split("; ")
    .filter(Boolean)
    .map((pair) => {
      const index = pair.indexOf("=");
      return { name: pair.slice(0, index), value: pair.slice(index + 1), url };
    });
}

/** Waits until `count` toasts whose text contains `text` have been shown (each id once). */
async function toastShown(page: Page, marker: string) {
  await page.waitForFunction(
    (text) => [...document.querySelectorAll('[role="status"]')].some((el) => el.textContent?.includes(text)),
    marker,
    { polling: "raf", timeout: 10_000 },
  );
}

async function measureApp(browser: Awaited<ReturnType<typeof chromium.launch>>): Promise<Figures> {
  const database = await scratchDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-bench-"));
  const server = await startServer({ DATABASE_URL: database.url, DATA_DIR: dataDir });
  try {
    const [author, reader] = [await signUp(server), await signUp(server)];
    const readerMe = (await reader.get("/api/me")).body.data as { uid: string; email: string };
    const projectId = (await author.post("/api/projects", { title: "Bench" })).body.data.id as string;
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#dfe7fd" } })
      .png()
      .toBuffer();
    const added = (
      await author.upload(`/api/projects/${projectId}/uploads`, {
        name: "page.png",
        type: "image/png",
        bytes: png,
      })
    ).body.data;
    const versionId = (added.versionId ?? added.versionID) as string;
    await author.post(`/api/projects/${projectId}/members`, { email: readerMe.email, access: "comment" });
    // The author's display name: the toast starts with it.
    await author.patch("/api/me", { displayName: "Bench Author" });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies(await asCookies(reader, server.url));
    const page = await context.newPage();
    const joined = page.waitForEvent("websocket");
    await page.goto(`${server.url}/projects`);
    await joined;
    await page.waitForTimeout(1500);

    const latencies: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const marker = `Bench Author mentioned you`;
      // The previous toast is gone before the next is timed (3 s), so each wait sees a new one.
      await page.waitForFunction(
        () =>
          ![...document.querySelectorAll('[role="status"]')].some((el) =>
            el.textContent?.includes("mentioned"),
          ),
        undefined,
        { timeout: 10_000 },
      );
      const started = performance.now();
      const posted = await author.post(`/api/versions/${versionId}/comments`, {
        comment: `Round ${i} {@${readerMe.uid}}`,
        dotPosition: { x: 0.1 + (i % 8) * 0.1, y: 0.2 },
        deviceWidth: 1280,
      });
      if (posted.status !== 201) throw new Error(`comment refused: ${posted.status}`);
      await toastShown(page, marker);
      latencies.push(performance.now() - started);
    }
    await context.close();
    return figures(latencies);
  } finally {
    server.process.kill();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The floor: POST → `ws` push → the page draws a status element. */
async function measureBaseline(browser: Awaited<ReturnType<typeof chromium.launch>>): Promise<Figures> {
  const port = await freePort();
  const page = `<!doctype html><body><script>
    const socket = new WebSocket("ws://127.0.0.1:${port}");
    socket.onmessage = (event) => {
      const el = document.createElement("div");
      el.setAttribute("role", "status");
      el.textContent = event.data;
      document.body.append(el);
      setTimeout(() => el.remove(), 50);
    };
  </script></body>`;
  const http = createServer((request, response) => {
    if (request.method === "POST") {
      request.resume();
      request.on("end", () => {
        for (const client of wss.clients) client.send(`Bench Author mentioned you ${Date.now()}`);
        response.writeHead(201).end("{}");
      });
      return;
    }
    response.writeHead(200, { "content-type": "text/html" }).end(page);
  });
  const wss = new WebSocketServer({ server: http });
  await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  const context = await browser.newContext();
  const tab = await context.newPage();
  const connected = new Promise<void>((resolve) => wss.once("connection", () => resolve()));
  await tab.goto(`http://127.0.0.1:${port}/`);
  await connected;
  const latencies: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    await tab.waitForFunction(() => !document.querySelector('[role="status"]'));
    const started = performance.now();
    const answer = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" });
    await answer.text();
    await toastShown(tab, "mentioned you");
    latencies.push(performance.now() - started);
  }
  await context.close();
  wss.close();
  http.close();
  return figures(latencies);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
try {
  const baseline = await measureBaseline(browser);
  const app = await measureApp(browser);
  const ratio = app.p95 / baseline.p95;
  const load = os.loadavg()[0]!.toFixed(1);
  const ms = (value: number) => Math.round(value);
  console.log({ baseline, app, ratio });
  await writeSection(
    "Notifications: event → toast in a second browser (#16)",
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:notifications\` on this project's 2-core machine (load average ${load} when it finished): the app as a server process on PostgreSQL; a member signed in in Chromium on /projects; another member posts ${ROUNDS} comments that mention them, one after another (each waits for the previous toast to close). Timed from the POST's start until the toast is on screen. Baseline in the same run and browser: a bare \`ws\` server pushing one message per HTTP POST to a page that draws it. Goal: p95 < 500 ms.

| Path | p50 (ms) | p95 (ms) |
| --- | ---: | ---: |
| Baseline: POST → bare \`ws\` push → element drawn | ${ms(baseline.p50)} | ${ms(baseline.p95)} |
| Redline: comment with a mention → notification toast | ${ms(app.p50)} | ${ms(app.p95)} |

Redline ÷ baseline, p95: ${ratio.toFixed(1)}×. p95 ${ms(app.p95)} ms — ${app.p95 < 500 ? "met" : "not met"} (goal < 500 ms). The notification rides its event (\`notifications.created\` carries it, with NOTIFY inside the comment's transaction), so the tab draws the toast without a request.`,
  );
} finally {
  await browser.close();
}
