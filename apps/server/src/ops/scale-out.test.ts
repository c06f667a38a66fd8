/**
 * Scale-out on loopback (issue #35): Caddy — with the load-balancing block of deploy/Caddyfile — in front
 * of two app processes and two capture-only workers, on one PostgreSQL and an S3-compatible store. Two
 * reviewers on different app processes follow each other's comments live; then each app process is
 * restarted in turn while both keep commenting and reading: no request fails beyond the one retry a
 * client makes, and no comment goes unseen by the other reviewer (live, or read again when its socket
 * reconnects after the "restarting" close).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { REALTIME_RESTART_CLOSE, type RealtimeServerMessage } from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { projectWithScreenshot, signUpThroughOutbox } from "../testing/crash-round.ts";
import type { ApiClient, ApiResponse } from "../testing/http-client.ts";
import { startS3Server } from "../testing/s3-server.ts";
import {
  type ServerProcess,
  type ServerProcessOptions,
  startServerProcess,
  startWorkerProcess,
} from "../testing/server-process.ts";
import { freePort } from "../testing/test-app.ts";
import { createTestDatabase, routeDrivers } from "../testing/test-db.ts";

const root = path.resolve(import.meta.dirname, "../../../..");
const CADDY = process.env.CADDY_PATH ?? "/usr/bin/caddy";

/** deploy/Caddyfile's `(redline_app)` block — what an operator runs — with this test's upstream ports. */
function caddyfile(listen: number, upstreams: number[]): string {
  const deployed = readFileSync(path.join(root, "deploy/Caddyfile"), "utf8");
  const block = deployed.match(/\(redline_app\) \{\n[\s\S]*?\n\}\n/)?.[0];
  if (!block?.includes("127.0.0.1:3000 127.0.0.1:3002")) throw new Error("deploy/Caddyfile changed shape");
  const appBlock = block.replace(
    "127.0.0.1:3000 127.0.0.1:3002",
    upstreams.map((port) => `127.0.0.1:${port}`).join(" "),
  );
  return `{\n\tadmin off\n\tauto_https off\n}\n\n${appBlock}\nhttp://127.0.0.1:${listen} {\n\timport redline_app\n}\n`;
}

async function startCaddy(dir: string, listen: number, upstreams: number[]) {
  const config = path.join(dir, "Caddyfile");
  await writeFile(config, caddyfile(listen, upstreams));
  const child = spawn(CADDY, ["run", "--config", config, "--adapter", "caddyfile"], {
    env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${listen}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ready = await fetch(`${url}/health/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`caddy did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/** A site to capture. */
async function startSite() {
  const server = http.createServer((_request, response) => {
    response
      .writeHead(200, { "content-type": "text/html" })
      .end(
        "<!doctype html><html><head><title>Scaled home</title></head><body><h1>Reviewed behind Caddy</h1></body></html>",
      );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Comment {
  id: string;
}

/**
 * A reviewer's tab as apps/web/src/lib/realtime.ts keeps it: one socket (through Caddy) in the project's
 * room; after any close but a final one it reconnects — at once after "restarting" — joins again and,
 * once joined, reads the comments again (events are not replayed). `seen`: every comment it knows of.
 */
async function openTab(url: string, client: ApiClient, projectId: string, versionId: string) {
  const seen = new Set<string>();
  const closeCodes: number[] = [];
  let socket: WebSocket | null = null;
  let isClosed = false;
  let joins = 0;
  const resync = async () => {
    const list = await client.get<{ data: Comment[] }>(`/api/versions/${versionId}/comments`);
    if (list.status === 200) for (const comment of list.body.data) seen.add(comment.id);
  };
  const connect = () => {
    const next = new WebSocket(`${url.replace("http", "ws")}/api/realtime`, {
      headers: { origin: url, cookie: client.cookieHeader() },
    });
    socket = next;
    next.on("open", () => next.send(JSON.stringify({ type: "join", projectId })));
    next.on("message", (data) => {
      const message = JSON.parse(data.toString()) as RealtimeServerMessage;
      if (message.type === "joined") {
        joins++;
        void resync();
      }
      if (message.type === "event" && message.event.type === "comments.created")
        seen.add(message.event.commentId);
    });
    next.on("error", () => {});
    next.on("close", (code) => {
      closeCodes.push(code);
      if (isClosed) return;
      setTimeout(connect, code === REALTIME_RESTART_CLOSE.code ? 50 : 500);
    });
  };
  connect();
  await expect.poll(() => joins, { timeout: 10_000 }).toBeGreaterThan(0);
  return {
    seen,
    closeCodes,
    close() {
      isClosed = true;
      socket?.close();
    },
  };
}

/** Open realtime connections on one app process, read from its own /metrics (loopback). */
async function websocketsOn(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(text.match(/^redline_websocket_connections (\d+)/m)?.[1] ?? Number.NaN);
}

describe.skipIf(routeDrivers()[0] !== "postgres")("two app processes and two workers behind Caddy", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  let dir: string;
  let processOptions: ServerProcessOptions;
  let appPorts: { port: number; contentPort: number }[];
  const apps: ServerProcess[] = [];
  let caddy: Awaited<ReturnType<typeof startCaddy>>;
  let site: Awaited<ReturnType<typeof startSite>>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "redline-scale-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const database = await createTestDatabase("postgres");
    cleanups.push(() => database.release());
    const s3 = await startS3Server();
    cleanups.push(() => s3.close());
    site = await startSite();
    cleanups.push(() => site.close());
    const listen = await freePort();
    appPorts = [
      { port: await freePort(), contentPort: await freePort() },
      { port: await freePort(), contentPort: await freePort() },
    ];
    processOptions = {
      dataDir: path.join(dir, "data"),
      databaseUrl: database.databaseUrl,
      env: {
        APP_URL: `http://127.0.0.1:${listen}`,
        AUTH_SECRET: "scale-out-test-secret-of-at-least-32-characters",
        TRUST_PROXY: "true",
        RATE_LIMIT_ENABLED: "false",
        METRICS_ALLOW_LOOPBACK: "true",
        SHUTDOWN_DELAY_SECONDS: "3",
        ALLOW_PRIVATE_URLS: "true",
        S3_BUCKET: "files",
        S3_REGION: "us-east-1",
        S3_ENDPOINT: s3.options().endpoint,
        S3_FORCE_PATH_STYLE: "true",
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
      },
    };
    // The first app migrates; the others find the schema ready.
    apps.push(await startServerProcess({ ...processOptions, ports: appPorts[0] }));
    const [second, ...workers] = await Promise.all([
      startServerProcess({ ...processOptions, ports: appPorts[1] }),
      startWorkerProcess(processOptions),
      startWorkerProcess(processOptions),
    ]);
    apps.push(second!);
    for (const server of [...apps, ...workers]) cleanups.push(() => server.kill9());
    caddy = await startCaddy(dir, listen, [appPorts[0]!.port, appPorts[1]!.port]);
    cleanups.push(() => caddy.stop());
  }, 120_000);

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });

  it("serves a review journey live across processes and loses nothing while each app process restarts", async () => {
    const stamp = Date.now();
    const owner = await signUpThroughOutbox(caddy.url, `scale-owner-${stamp}@example.com`);
    const reviewerEmail = `scale-reviewer-${stamp}@example.com`;
    const reviewer = await signUpThroughOutbox(caddy.url, reviewerEmail);
    // A screenshot stored in S3, and a page captured by one of the workers.
    const { projectId, versionId } = await projectWithScreenshot(owner, {
      title: "Behind Caddy",
      memberEmail: reviewerEmail,
      n: stamp % 0xffffff,
    });
    const captured = await owner.post(`/api/projects/${projectId}/pages`, { url: site.url });
    expect(captured.status).toBe(202);
    await expect
      .poll(async () => (await owner.get(`/api/versions/${captured.body.data.versionId}`)).body.data.status, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe("ready");

    // The reviewer's tab is opened again until Caddy's round robin puts it on the other process.
    const ownerTab = await openTab(caddy.url, owner, projectId, versionId);
    cleanups.push(async () => ownerTab.close());
    const perProcess = async () => [await websocketsOn(apps[0]!), await websocketsOn(apps[1]!)];
    let reviewerTab = await openTab(caddy.url, reviewer, projectId, versionId);
    for (let attempt = 0; attempt < 5 && (await perProcess()).includes(2); attempt++) {
      reviewerTab.close();
      await expect.poll(async () => (await perProcess()).reduce((a, b) => a + b)).toBe(1);
      await fetch(`${caddy.url}/health/live`); // the round robin's next turn
      reviewerTab = await openTab(caddy.url, reviewer, projectId, versionId);
    }
    const tabs = reviewerTab;
    cleanups.push(async () => tabs.close());
    expect(await perProcess()).toEqual([1, 1]);

    // Each sees the other's comment live, through the other process.
    const comment = (client: ApiClient, text: string) =>
      client.post<{ data: Comment }>(`/api/versions/${versionId}/comments`, {
        dotPosition: { x: 0.5, y: 0.5 },
        deviceWidth: 1280,
        comment: text,
      });
    const first = (await comment(owner, "Owner's first note")).body.data.id;
    await expect.poll(() => reviewerTab.seen.has(first), { timeout: 5000 }).toBe(true);
    const reply = (await comment(reviewer, "Reviewer's answer")).body.data.id;
    await expect.poll(() => ownerTab.seen.has(reply), { timeout: 5000 }).toBe(true);

    // Both keep working while each app process is restarted in turn. A request that fails is retried once,
    // as a client does; one that fails again is a failure.
    const acknowledged = new Set([first, reply]);
    const failures: string[] = [];
    let requests = 0;
    let stopping = false;
    const withRetry = async <T>(name: string, send: () => Promise<ApiResponse<T>>, ok: number) => {
      for (let attempt = 1; ; attempt++) {
        requests++;
        const response = await send().catch((error: Error) => ({ status: 0, error: error.message }));
        if (response.status === ok) return response as ApiResponse<T>;
        if (attempt === 2) {
          failures.push(
            `${name}: ${response.status} ${JSON.stringify("body" in response ? response.body : response)}`,
          );
          return null;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    const work = async (client: ApiClient, who: string) => {
      for (let n = 0; !stopping; n++) {
        const created = await withRetry("comment", () => comment(client, `${who} ${n}`), 201);
        if (created) acknowledged.add(created.body.data.id);
        await withRetry("read", () => client.get(`/api/versions/${versionId}/comments`), 200);
        await withRetry("project", () => client.get(`/api/projects/${projectId}`), 200);
      }
    };
    const traffic = Promise.all([work(owner, "owner"), work(reviewer, "reviewer")]);
    for (const index of [0, 1]) {
      const old = apps[index]!;
      await old.stop();
      expect(await old.exited).toBe(0);
      const restarted = await startServerProcess({ ...processOptions, ports: appPorts[index] });
      cleanups.push(() => restarted.kill9());
      apps[index] = restarted;
      // Caddy's health check finds it ready before the other one stops.
      await new Promise((resolve) => setTimeout(resolve, 2500));
    }
    stopping = true;
    await traffic;

    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(20);
    // Each tab was told "restarting" by the process it was on, and reconnected.
    for (const tab of [ownerTab, reviewerTab]) expect(tab.closeCodes).toContain(REALTIME_RESTART_CLOSE.code);
    // No comment acknowledged to one reviewer goes unseen by the other's tab, nor is missing from the list.
    await expect
      .poll(() => [...acknowledged].filter((id) => !ownerTab.seen.has(id) || !reviewerTab.seen.has(id)), {
        timeout: 10_000,
      })
      .toEqual([]);
    const listed = (await owner.get<{ data: Comment[] }>(`/api/versions/${versionId}/comments`)).body.data;
    expect([...acknowledged].filter((id) => !listed.some((c) => c.id === id))).toEqual([]);
    // Six processes and Caddy on two cores beside the rest of the suite: the journey's time is not its subject.
  }, 240_000);
});
