/**
 * Starts the real app on a free port with its own database (and optionally a real SMTP inbox), for
 * API and end-to-end tests. Requests go through the HTTP layer like a browser's.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Limits } from "@redline/shared";
import { paymentsDevIdle } from "@redline/stand-ins";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.ts";
import type { AppContext } from "../context.ts";
import { users } from "../db/schema/index.ts";
import { type AppConfig, loadConfig } from "../env.ts";
import type { RegisteredRoute } from "../lib/routes.ts";
import type { Readiness } from "../modules/health/readiness.ts";
import type { ApiClient } from "./http-client.ts";
import { type SmtpInbox, startSmtpInbox } from "./smtp-inbox.ts";
import { createTestDatabase, type TestDriver } from "./test-db.ts";

export interface TestApp {
  url: string;
  routes: string[];
  /** The routes with their declarations (summary, schemas, policy action). */
  registry: RegisteredRoute[];
  contentUrl: string;
  app: FastifyInstance;
  ctx: AppContext;
  /** /health/ready's state: `drain()` it as SIGTERM does (main.ts). */
  readiness: Readiness;
  inbox: SmtpInbox | null;
  /** Every 5xx answered so far ("status METHOD url"); close() fails when there is one. */
  serverErrors: string[];
  /**
   * Resolves once the ledger's consumers (notifications, their mail) and the realtime fan-out have read
   * every event recorded so far: what a person sees a moment after a write (lib/ledger.ts).
   */
  settled(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  driver?: TestDriver;
  /** true → mail goes over SMTP to a test inbox; false → the embedded outbox. */
  smtp?: boolean;
  config?: Partial<AppConfig>;
  /** For the few tests that cause a 5xx on purpose (e.g. a storage outage): close() does not fail. */
  allowServerErrors?: boolean;
  /** The host name of APP_URL and t.url (default 127.0.0.1; it must resolve here, e.g. localhost): for host-name rules. */
  appHost?: string;
  /** Environment variables read as `npm start` reads them (what the config derives from them follows). */
  env?: Record<string, string>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase(options.driver);
  const inbox = options.smtp === false ? null : await startSmtpInbox();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-test-"));
  // The app must know its own URLs before it is built, so its ports are chosen first and bound after
  // the build; another process may take one in between (seen under load). Then: new ports, again.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const contentPort = await freePort();
    const url = `http://${options.appHost ?? "127.0.0.1"}:${port}`;
    const config: AppConfig = {
      ...loadConfig({
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        PORT: String(port),
        LOG_LEVEL: "warn",
        ...(options.env && { APP_URL: url, ...options.env }),
      }),
      appUrl: url,
      host: "127.0.0.1",
      databaseUrl: database.databaseUrl,
      pgliteDir: database.pgliteDir,
      pgliteSnapshot: database.pgliteSnapshot,
      smtpUrl: inbox?.url,
      authRateLimit: 1000,
      // Tests write far faster than people; api-rate-limit.test.ts sets small limits to see them work.
      apiRateLimit: 100_000,
      apiRateLimitExpensive: 100_000,
      apiTokenRateLimit: 100_000,
      contentPort,
      contentOrigin: `http://127.0.0.1:${contentPort}`,
      captureWorker: false,
      // Most tests create several projects per user: plans are off unless a test is about them.
      plansEnabled: false,
      validateResponses: true,
      ...options.config,
    };
    const { app, routes, registry, content, ctx, readiness } = await buildApp(config);
    // Any 5xx is a bug (bad input must be a 4xx): every test app remembers them, and closing fails.
    const serverErrors: string[] = [];
    for (const server of [app, content])
      server.addHook("onResponse", async (request, reply) => {
        if (reply.statusCode >= 500)
          serverErrors.push(`${reply.statusCode} ${request.method} ${request.url}`);
      });
    // What is still open when closing takes long: each connection, named by the last request it carried
    // (an upgraded one by its WebSocket's address). One listener per connection, none per request.
    const open = new Map<Socket, string>();
    for (const server of [app, content]) {
      server.server.on("connection", (socket: Socket) => {
        open.set(socket, "an idle connection");
        socket.once("close", () => open.delete(socket));
      });
      server.server.on("request", (request) => open.set(request.socket, `${request.method} ${request.url}`));
      server.server.on("upgrade", (request, socket: Socket) => open.set(socket, `upgrade ${request.url}`));
    }
    try {
      await content.listen({ host: "127.0.0.1", port: contentPort });
      await app.listen({ host: "127.0.0.1", port });
    } catch (error) {
      await app.close(); // closes the content server and the database handle too
      if ((error as NodeJS.ErrnoException).code === "EADDRINUSE" && attempt < 5) continue;
      throw error;
    }
    return {
      url,
      contentUrl: config.contentOrigin,
      routes,
      registry,
      app,
      ctx,
      readiness,
      inbox,
      serverErrors,
      // Twice: what the consumers record in the first round (a notification's event) is read in the second.
      settled: async (timeoutMs?: number) => {
        await ctx.ledger.settled(timeoutMs);
        await ctx.ledger.settled(timeoutMs);
      },
      async close() {
        // A slow step is named on stderr, so a hook timeout says where the time went.
        const step = async (name: string, run: () => Promise<unknown>) => {
          const started = performance.now();
          const warn = setTimeout(
            () => console.error(`test app close: still in "${name}" after 10 s`),
            10_000,
          );
          try {
            await run();
          } finally {
            clearTimeout(warn);
            const ms = performance.now() - started;
            if (ms > 10_000) console.error(`test app close: "${name}" took ${Math.round(ms)} ms`);
          }
        };
        // Webhooks the embedded payment providers still owe land while the app still answers (once
        // closing, Fastify answers 503, and a webhook handler calling the provider back would fail).
        await step("payments idle", () =>
          Promise.race([paymentsDevIdle(app), new Promise<void>((resolve) => setTimeout(resolve, 10_000))]),
        );
        // Closing waits for what is in flight; a test app that still has something open after 20 s names it
        // and ends its connections, so one stuck request never holds a suite's hook past its timeout.
        await step("app.close", async () => {
          const late = setTimeout(() => {
            console.error(
              `test app close: still open after 20 s: ${[...open.values()].join(", ") || "nothing"}`,
            );
            for (const socket of open.keys()) socket.destroy();
          }, 20_000);
          try {
            await app.close();
          } finally {
            clearTimeout(late);
          }
        });
        await step("inbox.close", async () => inbox?.close());
        await step("database.release", () => database.release());
        await rm(dataDir, { recursive: true, force: true });
        if (serverErrors.length > 0 && !options.allowServerErrors)
          throw new Error(`The server answered 5xx:\n${serverErrors.join("\n")}`);
      },
    };
  }
}

/**
 * Sets a test user's own limits (SPEC §3 `limits`, what their plans give): e.g. unlimited projects with
 * the free plan's 5 pages, for a test about the page limit that creates several projects.
 */
export async function setLimits(t: TestApp, client: ApiClient, limits: Limits): Promise<void> {
  const uid = (await client.get("/api/me")).body.data.uid as string;
  await t.ctx.database.db.update(users).set({ limits }).where(eq(users.id, uid));
}

/** Two app processes on one PostgreSQL database, as behind a load balancer: each its own LISTEN, one secret. */
export interface TwoApps {
  a: TestApp;
  b: TestApp;
  close(): Promise<void>;
}

export async function startTwoApps(): Promise<TwoApps> {
  const database = await createTestDatabase("postgres");
  const a = await startTestApp({ config: { databaseUrl: database.databaseUrl } });
  const b = await startTestApp({
    config: { databaseUrl: database.databaseUrl, authSecret: a.ctx.config.authSecret },
  });
  return {
    a,
    b,
    close: async () => {
      await b.close();
      await a.close();
      await database.release();
    },
  };
}

/**
 * A read of what a write sets going (notifications, their mail): made once the ledger's consumers have
 * handled everything recorded so far, as a person would read it a moment after the write.
 */
export async function settledGet(t: TestApp, client: ApiClient, path: string) {
  await t.settled();
  return client.get(path);
}
