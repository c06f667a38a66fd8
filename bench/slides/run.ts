/**
 * npm run bench:slides — how fast one editor's change of a slide reaches a second editor, and whether
 * two editors' interleaved edits end identical (issue #32).
 *
 * A real server process on PostgreSQL. Editor A changes a text (a Yjs update over HTTP, as the web app
 * sends it); the time runs from the POST until editor B's socket hears `deck.updated`. Baseline in the
 * same run: a new comment's way to the same socket (`comments.created`), the product's other live path.
 * Then A and B send 500 interleaved edits of one object at once and the three copies (A, B, server) are
 * compared.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import WebSocket from "ws";
import * as Y from "yjs";
import type { ApiClient } from "../../apps/server/src/testing/http-client.ts";
import { percentile, writeSection } from "../lib/report.ts";
import { type Server, scratchDatabase, signUp, startServer } from "../lib/server.ts";

const ROUNDS = 200;
const INTERLEAVED = 250;
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
      const slides = doc.getMap<Y.Map<unknown>>("slides");
      return (slides.get("s1")?.get("objects") as Y.Map<Y.Map<unknown>>).get("t1") as Y.Map<unknown>;
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

    figures = `| Path | p50 | p95 |
|---|---|---|
| A comment reaches a reviewer's socket (baseline) | ${ms(comment.p50)} | ${ms(comment.p95)} |
| A slide edit reaches a second editor's socket | ${ms(deck.p50)} | ${ms(deck.p95)} |

Slide edit p95 / comment p95: **${(deck.p95 / comment.p95).toFixed(2)}×**. Target: p95 < 150 ms.
${INTERLEAVED * 2} interleaved edits of one object by two editors: ${(interleavedMs / 1000).toFixed(1)} s,
the two editors' decks and the server's ${same ? "**identical**" : "**different** (a failure)"}.`;
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

Not measured here (they need the browser): long tasks while dragging among 200 objects (a drag changes
Konva's nodes only, no React render, until it ends) and the strip's thumbnail redraw (120 ms after a slide
changes, then one off-screen Konva render).`,
  );
}

await main();
