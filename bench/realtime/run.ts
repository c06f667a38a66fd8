/**
 * npm run bench:realtime — how fast a new comment reaches every reviewer.
 *
 * The app runs as real server processes (one, then two on the same PostgreSQL database, as behind a
 * load balancer). N sockets (10, 100, 500) join one project; a comment is posted over HTTP; we time
 * post → event at every socket. Baseline in the same run: a bare `ws` server that broadcasts one
 * client's message to N sockets (the floor of any WebSocket fan-out on this machine).
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import WebSocket, { WebSocketServer } from "ws";
import type { ApiClient } from "../../apps/server/src/testing/http-client.ts";
import { freePort } from "../../apps/server/src/testing/test-app.ts";
import { percentile, writeSection } from "../lib/report.ts";
import { joinedSocket } from "../lib/review.ts";
import { type Server, scratchDatabase, signUp, startServer } from "../lib/server.ts";
import { BASELINE_COMMIT, type BrowserFigures, measureBrowser, prepareCheckout } from "./browser.ts";

const SIZES = [10, 100, 500];
const ROUNDS = 15;

/** Opens n sockets on the given servers (round-robin) and joins the project on each. */
async function openSockets(servers: Server[], client: ApiClient, projectId: string, n: number) {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < n; i++)
    sockets.push(await joinedSocket(servers[i % servers.length]!.url, client, projectId));
  return sockets;
}

async function measureApp(servers: Server[], client: ApiClient, n: number) {
  const projectId = (await client.post("/api/projects", { title: "Bench" })).body.data.id;
  const versionId = (await client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/b" }))
    .body.data.versionId;
  const sockets = await openSockets(servers, client, projectId, n);
  const latencies: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let started = 0;
    const arrivals = sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          socket.on("message", function onEvent(data) {
            if (JSON.parse(data.toString()).type !== "event") return;
            latencies.push(performance.now() - started);
            socket.off("message", onEvent);
            resolve();
          });
        }),
    );
    started = performance.now();
    await client.post(`/api/versions/${versionId}/comments`, {
      dotPosition: { x: 0.5, y: 0.5 },
      deviceWidth: 1280,
      comment: `round ${round}`,
    });
    await Promise.all(arrivals);
  }
  for (const socket of sockets) socket.close();
  return latencies;
}

async function measureBaseline(n: number) {
  const port = await freePort();
  const server = new WebSocketServer({ port, host: "127.0.0.1" });
  server.on("connection", (socket) => {
    socket.on("message", (data) => {
      for (const peer of server.clients) peer.send(data.toString());
    });
  });
  const connect = () =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}`);
      socket.once("open", () => resolve(socket));
      socket.once("error", reject);
    });
  const sender = await connect();
  const sockets: WebSocket[] = [];
  for (let i = 0; i < n; i++) sockets.push(await connect());
  const latencies: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const arrivals = sockets.map(
      (socket) =>
        new Promise<void>((resolve) =>
          socket.once("message", () => resolve(void latencies.push(performance.now() - started))),
        ),
    );
    sender.send(JSON.stringify({ round }));
    await Promise.all(arrivals);
  }
  for (const socket of [sender, ...sockets]) socket.close();
  await new Promise((resolve) => server.close(resolve));
  return latencies;
}

const stats = (values: number[]) => ({
  p50: percentile(values, 50),
  p95: percentile(values, 95),
  p99: percentile(values, 99),
});
const ms = (value: number) => value.toFixed(1);

async function main() {
  const database = await scratchDatabase();
  const databaseUrl = database.url;
  const dataDirs = [
    await mkdtemp(path.join(os.tmpdir(), "redline-bench-")),
    await mkdtemp(path.join(os.tmpdir(), "redline-bench-")),
  ];
  const secret = randomBytes(32).toString("hex");
  const servers: Server[] = [];
  const rows: string[] = [];
  try {
    servers.push(
      await startServer({ DATABASE_URL: databaseUrl, DATA_DIR: dataDirs[0]!, AUTH_SECRET: secret }),
    );
    servers.push(
      await startServer({ DATABASE_URL: databaseUrl, DATA_DIR: dataDirs[1]!, AUTH_SECRET: secret }),
    );
    const client = await signUp(servers[0]!);
    for (const n of SIZES) {
      const baseline = stats(await measureBaseline(n));
      const one = stats(await measureApp([servers[0]!], client, n));
      const two = stats(await measureApp(servers, client, n));
      const line = `| ${n} | ${ms(baseline.p50)} / ${ms(baseline.p95)} / ${ms(baseline.p99)} | ${ms(one.p50)} / ${ms(one.p95)} / ${ms(one.p99)} | ${ms(two.p50)} / ${ms(two.p95)} / ${ms(two.p99)} | ${(one.p95 / baseline.p95).toFixed(1)}× |`;
      console.log(line);
      rows.push(line);
    }
  } finally {
    for (const server of servers) server.process.kill();
    await sleep(300);
    await database.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  }
  await writeSection(
    "Realtime",
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:realtime\` on this project's 2-core machine (load average
${os.loadavg()[0]!.toFixed(1)} when it finished), PostgreSQL on the same machine.
A comment is posted over HTTP; the time runs from the POST until the event arrives at **each** of N sockets
joined to the project (${ROUNDS} rounds; all N arrivals count). "Two processes": two app servers on one
database, sockets split between them, the post always on the first — the event crosses processes through
PostgreSQL NOTIFY. Baseline: a bare \`ws\` server broadcasting one client's message to N sockets in the
same run. Values are p50 / p95 / p99 in milliseconds. Target: p95 < 50 ms at 500 clients.

| Sockets | Bare ws broadcast | Redline, one process | Redline, two processes | p95 ÷ baseline (one process) |
|---|---|---|---|---|
${rows.join("\n")}

The app's figure includes the whole HTTP write (validation, session, policy, the transaction) before the
NOTIFY; the bench client, both servers and PostgreSQL share the same 2 cores.`,
  );
}

async function browserSection(): Promise<void> {
  const current = await measureBrowser();
  console.log("browser, this checkout:", current);
  const checkout = prepareCheckout(BASELINE_COMMIT);
  let before: BrowserFigures;
  try {
    before = await measureBrowser(checkout.root);
    console.log(`browser, ${BASELINE_COMMIT}:`, before);
  } finally {
    checkout.remove();
  }
  const asked = (f: BrowserFigures) =>
    Object.entries(f.requested)
      .map(([shape, count]) => `${shape} ×${count}`)
      .join(", ") || "none";
  const row = (name: string, f: BrowserFigures) =>
    `| ${name} | ${f.requestsPerComment.toFixed(1)} | ${ms(f.p50)} | ${ms(f.p95)} | ${asked(f)} |`;
  await writeSection(
    "Realtime: a new comment in a second browser",
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:realtime\` (same machine, same run for both rows).
One reviewer posts a comment over HTTP on an image page; a second reviewer has the same review page open in
another Chromium context. Per comment: the HTTP requests the receiving tab makes (goal: 0), and the time from
the POST to the pin drawn in that tab (p50 / p95, ms). The earlier row is commit ${BASELINE_COMMIT} — before
comment events carried the comment — built and served from its own checkout in the same run.

| Checkout | requests per comment (receiving tab) | post → pin p50 | post → pin p95 | what the tab asked for (all comments) |
|---|---|---|---|---|
${row("this commit", current)}
${row(BASELINE_COMMIT, before)}

Nothing is asked for: the comment arrives with its event, with that reader's abilities, and the notification
the same comment makes for that reviewer arrives with its own event, which the bell counts without a request
(goal met; the comments e2e asserts no API read in either tab).`,
  );
}

if (process.env.BENCH_ONLY !== "browser") await main();
if (process.env.BENCH_ONLY !== "sockets") await browserSection();
