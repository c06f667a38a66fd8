/** Shared by the benches: the real app as a server process, a verified user on it, a scratch PostgreSQL database. */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { ApiClient } from "../../apps/server/src/testing/http-client.ts";
import { freePort } from "../../apps/server/src/testing/test-app.ts";
import { repoRoot } from "./report.ts";

export interface Server {
  url: string;
  process: ChildProcess;
}

export const adminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Starts `apps/server/src/main.ts` (no capture worker, no rate limits) and waits for /api/health; `root`
 * runs another checkout's server (bench/realtime/browser.ts compares with an earlier commit).
 */
export async function startServer(env: Record<string, string>, root = repoRoot): Promise<Server> {
  const [port, contentPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      HOST: "127.0.0.1",
      PORT: String(port),
      CONTENT_PORT: String(contentPort),
      APP_URL: url,
      CAPTURE_WORKER: "false",
      RATE_LIMIT_ENABLED: "false",
      // Benches measure speed, not plans: their users create what they need.
      PLANS_ENABLED: "false",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  // A loaded machine (other work beside the bench) may need longer: SERVER_START_SECONDS.
  const tries = Number(process.env.SERVER_START_SECONDS ?? 30) * 10;
  for (let i = 0; i < tries; i++) {
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, process: child };
    await sleep(100);
  }
  child.kill();
  throw new Error("server did not start");
}

/** Signs up a new user and verifies the address through the dev mailbox. */
export async function signUp(server: Server): Promise<ApiClient> {
  const client = new ApiClient(server.url);
  const email = `bench-${randomBytes(4).toString("hex")}@example.com`;
  await client.post("/api/auth/sign-up/email", { email, password: "bench password", name: "Bench" });
  // Mail is delivered out of the request: it reaches the dev mailbox a moment later.
  let mail: { to: string; text: string } | undefined;
  for (let i = 0; i < 100 && !mail; i++) {
    const mails = (await client.get("/api/dev/mailbox")).body.data as { to: string; text: string }[];
    mail = mails.find((m) => m.to === email);
    if (!mail) await sleep(50);
  }
  const link = mail!.text.match(/https?:\/\/\S+/)![0];
  await client.get(
    `/api/auth/verify-email?token=${encodeURIComponent(new URL(link).searchParams.get("oobCode")!)}`,
  );
  return client;
}

/** A fresh database on the PostgreSQL server; `drop()` removes it. */
export async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `redline_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  return {
    url: Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
