/**
 * PostgreSQL restarted under traffic (issue #35): the server process reaches PostgreSQL through a TCP hop
 * that drops every connection and refuses new ones for a while — what a restart looks like from the app.
 * Requests during the outage are answered 503 with Retry-After, each within seconds (never a hang, never a
 * 500); afterwards the process serves again by itself; every write it acknowledged is in the database.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { signUpThroughOutbox } from "../testing/crash-round.ts";
import { cuttableProxy } from "../testing/cuttable-proxy.ts";
import { startServerProcess } from "../testing/server-process.ts";
import { createTestDatabase, routeDrivers } from "../testing/test-db.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

interface Answer {
  status: number;
  retryAfter: string | null;
  ms: number;
  phase: "before" | "outage" | "after";
}

describe.skipIf(routeDrivers()[0] !== "postgres")("PostgreSQL restarted under traffic", () => {
  it("answers 503 with Retry-After while it is away, serves again by itself, and loses no acknowledged write", async () => {
    const database = await createTestDatabase("postgres");
    cleanups.push(() => database.release());
    const direct = new URL(database.databaseUrl!);
    const proxy = await cuttableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    cleanups.push(() => proxy.cut());
    const viaProxy = new URL(direct);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-pg-restart-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const server = await startServerProcess({
      dataDir,
      databaseUrl: viaProxy.toString(),
      env: { RATE_LIMIT_ENABLED: "false" },
    });
    cleanups.push(() => server.kill9());
    const client = await signUpThroughOutbox(server.url, `pg-restart-${Date.now()}@example.com`);

    const answers: Answer[] = [];
    const acknowledged = new Set<string>();
    let phase: Answer["phase"] = "before";
    let stopping = false;
    const timed = async <T extends { status: number; headers: Headers }>(send: () => Promise<T>) => {
      const started = Date.now();
      const at = phase;
      const response = await send();
      answers.push({
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        ms: Date.now() - started,
        phase: at,
      });
      return response;
    };
    const writer = async () => {
      for (let n = 0; !stopping; n++) {
        const created = await timed(() => client.post("/api/projects", { title: `Through a restart ${n}` }));
        if (created.status === 201) acknowledged.add(created.body.data.id);
        else await new Promise((resolve) => setTimeout(resolve, 100));
        await timed(() => client.get("/api/projects"));
      }
    };
    const writers = Promise.all([writer(), writer()]);
    await new Promise((resolve) => setTimeout(resolve, 500));

    // PostgreSQL goes away: every connection dropped, none accepted, for 3 s.
    phase = "outage";
    await proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ code: "not-ready" });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await proxy.restore();
    phase = "after";
    // It serves again by itself: a write succeeds within a few seconds of PostgreSQL's return.
    await expect
      .poll(async () => (await client.post("/api/projects", { title: "After the restart" })).status, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 500));
    stopping = true;
    await writers;

    const during = answers.filter((answer) => answer.phase === "outage");
    expect(during.some((answer) => answer.status === 503)).toBe(true);
    // Nothing but success or 503 with Retry-After, at any time; no answer took longer than the pool's
    // connection timeout and a little more.
    expect(
      answers.filter(
        (answer) => ![200, 201].includes(answer.status) && !(answer.status === 503 && answer.retryAfter),
      ),
    ).toEqual([]);
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(8000);
    expect(
      answers.filter((answer) => answer.phase === "after" && answer.status === 201).length,
    ).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();

    // Every acknowledged write is there, read from PostgreSQL directly.
    const check = new pg.Client({ connectionString: database.databaseUrl });
    await check.connect();
    try {
      const { rows } = await check.query<{ id: string }>("select id from projects");
      const stored = new Set(rows.map((row) => row.id));
      expect([...acknowledged].filter((id) => !stored.has(id))).toEqual([]);
      expect(acknowledged.size).toBeGreaterThan(0);
    } finally {
      await check.end();
    }
  }, 60_000);
});
