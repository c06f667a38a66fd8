/**
 * The real server as a child process (`node --import tsx src/main.ts`), for tests and benches that
 * must kill it (-9) or start two on one folder: what an operator's process manager would do.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./test-app.ts";

const mainFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../main.ts");

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal) when the process ends. */
  exited: Promise<number | NodeJS.Signals | null>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  /** Ports to listen on (a process restarted behind a proxy takes its predecessor's); else free ones. */
  ports?: { port: number; contentPort: number };
}

/**
 * Spawns the server; resolves once /api/health answers, rejects if it exits first. A port chosen free
 * may be taken by another process before the server binds it (seen under load): then new ports, again.
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    const { port, contentPort } = options.ports ?? { port: await freePort(), contentPort: await freePort() };
    const server = spawnServerProcess(options, port, contentPort);
    const exitedEarly = server.exited.then((code) => {
      throw new Error(`server exited (${code}) before it listened:\n${server.output()}`);
    });
    try {
      await Promise.race([waitForHealth(server.url), exitedEarly]);
      exitedEarly.catch(() => {});
      return server;
    } catch (error) {
      exitedEarly.catch(() => {});
      if (attempt < 4 && !options.ports && server.output().includes("EADDRINUSE")) continue;
      throw error;
    }
  }
}

/** Spawns the server without waiting for it. */
export function spawnServerProcess(options: ServerProcessOptions, port: number, contentPort: number) {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [...(process.env.SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? []), "--import", "tsx", mainFile],
    {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "test",
        HOST: "127.0.0.1",
        PORT: String(port),
        CONTENT_PORT: String(contentPort),
        APP_URL: url,
        DATA_DIR: options.dataDir,
        CAPTURE_WORKER: "false",
        LOG_LEVEL: "warn",
        // Like the test apps: plans off unless a caller is about them (writers create many projects).
        PLANS_ENABLED: "false",
        ...(options.databaseUrl && { DATABASE_URL: options.databaseUrl }),
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal)),
  );
  const server: ServerProcess = {
    url,
    child,
    output: () => output,
    exited,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
  return server;
}

/**
 * Spawns a `ROLE=worker` process (jobs only, no port); resolves once it says it works the queue, rejects
 * if it exits first.
 */
export async function startWorkerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const worker = spawnServerProcess(
    { ...options, env: { ...options.env, ROLE: "worker", LOG_LEVEL: "info" } },
    await freePort(),
    await freePort(),
  );
  const deadline = Date.now() + 120_000;
  while (!worker.output().includes("Redline worker: jobs only")) {
    if (worker.child.exitCode !== null || worker.child.signalCode !== null || Date.now() > deadline)
      throw new Error(`worker did not start:\n${worker.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return worker;
}

async function waitForHealth(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server at ${url} did not answer within ${timeoutMs} ms`);
}
