import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./env.ts";
import { freePort } from "./testing/test-app.ts";

const root = path.resolve(import.meta.dirname, "../../..");

const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });

describe("the server's entry with ROLE=worker", () => {
  it("works capture jobs whatever CAPTURE_WORKER says; a ROLE other than app or worker stops start-up", () => {
    expect(loadConfig({ ROLE: "worker", CAPTURE_WORKER: "false" }).captureWorker).toBe(true);
    expect(loadConfig({ CAPTURE_WORKER: "false" }).role).toBe("app");
    expect(() => loadConfig({ ROLE: "proxy" })).toThrow("ROLE: must be app or worker");
  });

  it("starts, listens on no port, and stops cleanly on SIGTERM", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-worker-"));
    const [port, contentPort] = [await freePort(), await freePort()];
    const child = spawn("node", ["--import", "tsx", "apps/server/src/main.ts"], {
      cwd: root,
      env: {
        ...process.env,
        ROLE: "worker",
        CAPTURE_WORKER: "false", // the role turns it on
        DATA_DIR: dataDir,
        PORT: String(port),
        CONTENT_PORT: String(contentPort),
        DATABASE_URL: "",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      await expect
        .poll(() => output, { timeout: 45_000, interval: 200 })
        .toContain("Redline worker: jobs only, no HTTP (database: pglite)");
      expect(await refusesConnections(port)).toBe(true);
      expect(await refusesConnections(contentPort)).toBe(true);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
