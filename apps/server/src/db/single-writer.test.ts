import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ServerProcess, spawnServerProcess, startServerProcess } from "../testing/server-process.ts";
import { freePort } from "../testing/test-app.ts";

describe("embedded database: one writer", () => {
  const started: ServerProcess[] = [];
  let dataDir = "";
  afterAll(async () => {
    await Promise.all(started.map((server) => server.kill9()));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("refuses a second server on the same DATA_DIR, and takes over after the first is killed -9", async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-lock-"));
    const first = await startServerProcess({ dataDir });
    started.push(first);

    const second = spawnServerProcess({ dataDir }, await freePort(), await freePort());
    started.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/in use by another Redline process/);
    expect(second.output()).toMatch(/DATABASE_URL/);
    // The refused process did not take the first one's database away.
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);

    await first.kill9();
    const third = await startServerProcess({ dataDir });
    started.push(third);
    expect((await fetch(`${third.url}/api/health`)).status).toBe(200);
  }, 180_000); // two server processes start: a minute each on a loaded machine
});
