/**
 * npm run bench:slides — how fast one editor's change of a slide reaches a second editor, and whether
 * two editors' interleaved edits end identical (issue #32).
 *
 * A real server process on PostgreSQL. Editor A changes a text (a Yjs update over HTTP, as the web app
 * sends it); the time runs from the POST until editor B's socket hears `deck.updated`. Baseline in the
 * same run: a new comment's way to the same socket (`comments.created`), the product's other live path.
 * Then A and B send 500 interleaved edits of one object at once and the three copies (A, B, server) are
 * compared. In Chromium: long tasks while an object is dragged over a slide of 200, and another
 * editor's save → the strip's thumbnail redrawn.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "playwright-core";
import WebSocket from "ws";
import * as Y from "yjs";
import type { ApiClient } from "../../apps/server/src/testing/http-client.ts";
import { percentile, writeSection } from "../lib/report.ts";
import { type Server, scratchDatabase, signUp, startServer } from "../lib/server.ts";

const ROUNDS = 200;
const INTERLEAVED = 250;
const THUMBNAIL_ROUNDS = 20;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

async function joinedSocket(server: Server, client: ApiClient, projectId: string) {
  const socket = new WebSocket(`${server.url.replace("http", "ws")}/api/realtime`, {
    headers: { origin: server.url, cookie: client.cookieHeader() },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => socket.send(JSON.stringify({ type: "join", projectId })));
    socket.on("message", function joined(data) {
      if (JSON.parse(data.toString()).type === "joined") {
        socket.off("message", joined);
        resolve();
      }
    });
    socket.once("error", reject);
  });
  return socket;
}

/** Times `send` until the socket hears an event `matches` accepts, `rounds` times. */
async function timeRelay(
  socket: WebSocket,
  rounds: number,
  send: (round: number) => Promise<unknown>,
  matches: (event: { type: string; clientId?: number }) => boolean,
) {
  const latencies: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const heard = new Promise<void>((resolve) => {
      socket.on("message", function onEvent(data) {
        const message = JSON.parse(data.toString());
        if (message.type !== "event" || !matches(message.event)) return;
        socket.off("message", onEvent);
        latencies.push(performance.now() - started);
        resolve();
      });
    });
    await send(round);
    await heard;
  }
  return latencies;
}

function editor(client: ApiClient, projectId: string) {
  const doc = new Y.Doc();
  const pending: Uint8Array[] = [];
  doc.on("update", (update: Uint8Array, origin: unknown) => origin !== "remote" && pending.push(update));
  return {
    doc,
    async load() {
      const { body } = await client.get(`/api/projects/${projectId}/deck`);
      Y.applyUpdate(doc, new Uint8Array(Buffer.from(body.data.update, "base64")), "remote");
    },
    async flush() {
      if (pending.length === 0) return;
      const update = Y.mergeUpdates(pending.splice(0));
      const sent = await client.post(`/api/projects/${projectId}/deck/updates`, {
        update: b64(update),
        clientId: doc.clientID,
      });
      if (sent.status !== 200) throw new Error(`update refused: ${JSON.stringify(sent.body)}`);
    },
    text() {
      const objects = doc.getMap<Y.Map<unknown>>("slides").get("s1")?.get("objects") as Y.Map<Y.Map<unknown>>;
      return objects.get("t1") as Y.Map<unknown>;
    },
  };
}

function seed(doc: Y.Doc) {
  const slide = new Y.Map<unknown>();
  for (const [key, value] of Object.entries({ id: "s1", position: 1, createdAt: 1, notes: "" }))
    slide.set(key, value);
  const objects = new Y.Map<Y.Map<unknown>>();
  const text = new Y.Map<unknown>();
  const fields = {
    id: "t1",
    kind: "text",
    text: "Bench",
    x: 0,
    y: 0,
    width: 200,
    height: 40,
    rotation: 0,
    z: 1,
    fontFamily: "Inter",
    fontSize: 28,
    fontWeight: 400,
    italic: false,
    underline: false,
    fill: "#111111",
    align: "left",
  };
  for (const [key, value] of Object.entries(fields)) text.set(key, value);
  objects.set("t1", text);
  slide.set("objects", objects);
  doc.getMap("slides").set("s1", slide);
}

/** A slide of `count` texts in a grid (the drag's crowd). */
function crowd(doc: Y.Doc, count: number) {
  const slides = doc.getMap<Y.Map<unknown>>("slides");
  const objects = slides.get("s1")?.get("objects") as Y.Map<Y.Map<unknown>>;
  doc.transact(() => {
    for (let i = 0; i < count; i++) {
      const text = new Y.Map<unknown>();
      const fields = {
        id: `c${i}`,
        kind: "text",
        text: `Item ${i}`,
        x: 20 + (i % 20) * 48,
        y: 60 + Math.floor(i / 20) * 60,
        width: 44,
        height: 16,
        rotation: 0,
        z: 2 + i,
        fontFamily: "Inter",
        fontSize: 12,
        fontWeight: 400,
        italic: false,
        underline: false,
        fill: "#333333",
        align: "left",
      };
      for (const [key, value] of Object.entries(fields)) text.set(key, value);
      objects.set(`c${i}`, text);
    }
  });
}

/**
 * In Chromium: long tasks while one object is dragged across a slide of 200, and how long after another
 * editor's save the strip's thumbnail shows it.
 */
async function measureBrowser(
  server: Server,
  client: ApiClient,
  projectId: string,
  a: ReturnType<typeof editor>,
) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    await client.patch("/api/me", {
      onboarding: { profileSetup: true, featureTour: true, introduceProductSplitting: true, demoModal: true },
    });
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    await context.addCookies(
      client.cookieList().map((cookie) => ({ ...cookie, url: server.url, httpOnly: true })),
    );
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
      }).observe({ type: "longtask", buffered: true });
    });
    await page.goto(`/project/${projectId}`);
    await page.getByRole("button", { name: "Slide 1" }).waitFor();
    await page.locator(".slide-strip img").first().waitFor();
    const box = (await page.locator(".slide-stage").boundingBox())!;
    const scale = box.width / 1000;
    // The bench text (t1) is at 0,0: drag it across the crowd and back, as a person would.
    await page.evaluate(() => {
      (window as unknown as { longTasks: number[] }).longTasks = [];
    });
    const from = { x: box.x + 20 * scale, y: box.y + 15 * scale };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 700 * scale, from.y + 500 * scale, { steps: 120 });
    await page.mouse.move(from.x + 100 * scale, from.y + 300 * scale, { steps: 120 });
    await page.mouse.up();
    await sleep(500);
    const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);

    // Another editor's save → the strip's thumbnail redrawn.
    const thumbnails: number[] = [];
    for (let round = 0; round < THUMBNAIL_ROUNDS; round++) {
      const before = await page.locator(".slide-strip img").first().getAttribute("src");
      a.text().set("y", 300 + round * 20);
      await a.flush();
      // From the save: the server has stored the change (its answer came back).
      const started = Date.now();
      await page.waitForFunction(
        (previous) => document.querySelector(".slide-strip img")?.getAttribute("src") !== previous,
        before,
      );
      thumbnails.push(Date.now() - started);
    }
    return { longTasks, thumbnails };
  } finally {
    await browser.close();
  }
}

const stats = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95) });
const ms = (value: number) => value.toFixed(1);

async function main() {
  const database = await scratchDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-bench-"));
  let server: Server | null = null;
  let figures = "";
  try {
    server = await startServer({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      AUTH_SECRET: randomBytes(32).toString("hex"),
    });
    const a = await signUp(server);
    const b = await signUp(server);
    const bEmail = (await b.get("/api/me")).body.data.email as string;
    const deckId = (await a.post("/api/projects", { title: "Deck", type: "illustration" })).body.data.id;
    const webId = (await a.post("/api/projects", { title: "Web" })).body.data.id;
    for (const projectId of [deckId, webId])
      await a.post(`/api/projects/${projectId}/members`, { email: bEmail, access: "edit" });
    const versionId = (await a.post(`/api/projects/${webId}/pages`, { url: "https://example.com/b" })).body
      .data.versionId;

    const editorA = editor(a, deckId);
    await editorA.load();
    seed(editorA.doc);
    await editorA.flush();
    const deckSocket = await joinedSocket(server, b, deckId);
    const webSocket = await joinedSocket(server, b, webId);

    const comment = stats(
      await timeRelay(
        webSocket,
        50,
        () =>
          a.post(`/api/versions/${versionId}/comments`, {
            dotPosition: { x: 0.5, y: 0.5 },
            deviceWidth: 1280,
            comment: "Bench",
          }),
        (event) => event.type === "comments.created",
      ),
    );
    const deck = stats(
      await timeRelay(
        deckSocket,
        ROUNDS,
        (round) => {
          editorA.text().set("x", round);
          return editorA.flush();
        },
        (event) => event.type === "deck.updated" && event.clientId === editorA.doc.clientID,
      ),
    );
    deckSocket.close();
    webSocket.close();

    // 500 interleaved edits of one object, both editors sending at once.
    const editorB = editor(b, deckId);
    await Promise.all([editorA.load(), editorB.load()]);
    const started = performance.now();
    for (let round = 0; round < INTERLEAVED; round++) {
      editorA.text().set("x", round);
      editorB.text().set(round % 2 ? "y" : "x", round * 2);
      await Promise.all([editorA.flush(), editorB.flush()]);
    }
    const interleavedMs = performance.now() - started;
    const server3 = editor(a, deckId);
    await Promise.all([editorA.load(), editorB.load(), server3.load()]);
    const same =
      JSON.stringify(editorA.doc.getMap("slides").toJSON()) ===
        JSON.stringify(editorB.doc.getMap("slides").toJSON()) &&
      JSON.stringify(editorA.doc.getMap("slides").toJSON()) ===
        JSON.stringify(server3.doc.getMap("slides").toJSON());

    crowd(editorA.doc, 200);
    await editorA.flush();
    const browserFigures = await measureBrowser(server, a, deckId, editorA);
    const thumbs = stats(browserFigures.thumbnails);
    const longest = Math.max(0, ...browserFigures.longTasks);

    figures = `| Path | p50 | p95 |
|---|---|---|
| A comment reaches a reviewer's socket (baseline) | ${ms(comment.p50)} | ${ms(comment.p95)} |
| A slide edit reaches a second editor's socket | ${ms(deck.p50)} | ${ms(deck.p95)} |

Slide edit p95 / comment p95: **${(deck.p95 / comment.p95).toFixed(2)}×**. Target: p95 < 150 ms.
${INTERLEAVED * 2} interleaved edits of one object by two editors: ${(interleavedMs / 1000).toFixed(1)} s,
the two editors' decks and the server's ${same ? "**identical**" : "**different** (a failure)"}.

In Chromium, one object dragged over a slide of 201 for 240 mouse steps: ${browserFigures.longTasks.length} long
tasks, the longest ${ms(longest)} ms (target: none over 50 ms). Another editor's save (from the server's answer) → the strip's
500×350 thumbnail redrawn: p50 ${ms(thumbs.p50)} ms, p95 ${ms(thumbs.p95)} ms (${THUMBNAIL_ROUNDS} saves; target ≤ 300 ms after the save).`;
    console.log(figures);
    if (!same) process.exitCode = 1;
  } finally {
    server?.process.kill();
    await sleep(300);
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
  await writeSection(
    "Slides",
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:slides\` on this project's 2-core machine (load average
${os.loadavg()[0]!.toFixed(1)} when it finished), one server process, PostgreSQL on the same machine.
Editor A sends a change of one text as the web app does (a Yjs update over HTTP); the time runs from the POST
until editor B's socket hears it (${ROUNDS} rounds). Baseline in the same run: a new comment reaching the same
reviewer's socket (50 rounds). Milliseconds.

${figures}
`,
  );
}

await main();
