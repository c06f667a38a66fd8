/**
 * A capture worker killed mid-job (issue #35): its job is still running in the queue, held by no one; the
 * other worker fails it within seconds so the queue retries it, captures the page, and the page ends
 * ready — not after the job's expiry.
 */
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { signUpThroughOutbox } from "../testing/crash-round.ts";
import { startServerProcess, startWorkerProcess } from "../testing/server-process.ts";
import { createTestDatabase, routeDrivers } from "../testing/test-db.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** A site whose page is held unanswered until `release()`: a capture of it is mid-job meanwhile. */
async function startHeldSite() {
  let requests = 0;
  let isHeld = true;
  const held: http.ServerResponse[] = [];
  const page =
    "<!doctype html><html><head><title>Captured twice</title></head><body><h1>Second worker</h1></body></html>";
  const server = http.createServer((_request, response) => {
    requests++;
    if (isHeld) held.push(response);
    else response.writeHead(200, { "content-type": "text/html" }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests: () => requests,
    release() {
      isHeld = false;
      for (const response of held.splice(0)) response.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(routeDrivers()[0] !== "postgres")("a capture worker killed mid-job", () => {
  it("has its job retried by the other worker, and the page ends ready", async () => {
    const database = await createTestDatabase("postgres");
    cleanups.push(() => database.release());
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-worker-kill-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const site = await startHeldSite();
    cleanups.push(() => site.close());
    const options = {
      dataDir,
      databaseUrl: database.databaseUrl,
      env: { RATE_LIMIT_ENABLED: "false", ALLOW_PRIVATE_URLS: "true" },
    };
    // Started together, as systemd starts units: they create the same queues at the same moment.
    const [app, first] = await Promise.all([startServerProcess(options), startWorkerProcess(options)]);
    cleanups.push(
      () => app.kill9(),
      () => first.kill9(),
    );
    const owner = await signUpThroughOutbox(app.url, `worker-kill-${Date.now()}@example.com`);
    const projectId = (await owner.post("/api/projects", { title: "Killed mid-capture" })).body.data.id;
    const added = await owner.post(`/api/projects/${projectId}/pages`, { url: site.url });
    expect(added.status).toBe(202);
    const versionId = added.body.data.versionId as string;

    // The first worker's browser is loading the page: the capture is under way. Then it is killed.
    await expect.poll(site.requests, { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
    expect((await owner.get(`/api/versions/${versionId}`)).body.data.status).toBe("capturing");
    await first.kill9();
    site.release();
    // The other worker starts after the kill (on a loaded machine a start takes long enough for a held
    // capture to time out by itself, which is not what this tests).
    const second = await startWorkerProcess(options);
    cleanups.push(() => second.kill9());

    // Well before the job's expiry (180 s), the other worker has captured it.
    await expect
      .poll(async () => (await owner.get(`/api/versions/${versionId}`)).body.data.status, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe("ready");
    expect((await owner.get(`/api/projects/${projectId}`)).body.data.pages[0].title).toBe("Captured twice");
  }, 180_000); // two app processes start one after the other: a minute each on a loaded machine
});
