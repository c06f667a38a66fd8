/**
 * Builds the one Fastify process: API under /api, stored files under /files, and the built SPA with a
 * history fallback for every other GET. Which providers run is decided by the config.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { ApiErrorBody } from "@redline/shared";
import Fastify, { type FastifyInstance } from "fastify";
import { ZodError } from "zod";
import type { AppContext } from "./context.ts";
import { openDatabase } from "./db/index.ts";
import type { AppConfig } from "./env.ts";
import { ForbiddenError, HttpError } from "./lib/errors.ts";
import { createMailer } from "./lib/mail/mailer.ts";
import { createLocalStorage } from "./lib/storage/storage.ts";
import { authRoutes } from "./modules/auth/auth.routes.ts";
import { createAuth } from "./modules/auth/auth.ts";
import { filesRoutes } from "./modules/files/files.routes.ts";
import { healthRoutes } from "./modules/health/health.routes.ts";
import { mailboxRoutes } from "./modules/mailbox/mailbox.routes.ts";
import { usersRoutes } from "./modules/users/users.routes.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export async function buildApp(config: AppConfig): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const database = await openDatabase(config);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db: database.db });
  const storage = createLocalStorage(config.filesDir);
  const auth = createAuth(config, database.db, mailer);
  const ctx: AppContext = { config, database, auth, mailer, storage };

  const app = Fastify({
    logger: { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.addHook("onClose", () => database.close());

  // CSRF: a state-changing API call must come from our own origin. Cookies are SameSite=Lax too.
  const appOrigin = new URL(config.appUrl).origin;
  app.addHook("onRequest", async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith("/api/")) return;
    const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
    if (origin !== appOrigin) throw new ForbiddenError("Cross-site request refused.", "csrf");
  });

  app.setErrorHandler((error, request, reply) => {
    const body = (status: number, code: string, message: string): ApiErrorBody => ({
      error: statusText(status),
      code,
      message,
    });
    if (error instanceof HttpError)
      return reply.status(error.statusCode).send(body(error.statusCode, error.code, error.message));
    if (error instanceof ZodError) {
      const message = error.issues
        .map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`)
        .join("; ");
      return reply.status(400).send(body(400, "validation", message));
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply
        .status(status)
        .send(body(status, (error as { code?: string }).code ?? "bad-request", (error as Error).message));
    }
    request.log.error(error);
    return reply.status(500).send(body(500, "internal", "Something went wrong"));
  });

  await app.register(authRoutes, { auth });
  await app.register(healthRoutes, { ctx });
  await app.register(usersRoutes, { ctx });
  await app.register(filesRoutes, { ctx });
  if (!config.isProduction) await app.register(mailboxRoutes, { ctx });

  const hasWeb = existsSync(path.join(config.webDist, "index.html"));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      request.method === "GET" && !request.url.startsWith("/api/") && !request.url.startsWith("/files/");
    if (isPage && hasWeb) return reply.header("cache-control", "no-cache").sendFile("index.html");
    return reply
      .status(404)
      .send({ error: "Not Found", code: "not-found", message: "Not found" } satisfies ApiErrorBody);
  });

  return { app, ctx };
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

function statusText(status: number): string {
  return (
    {
      400: "Bad Request",
      401: "Unauthorized",
      403: "Forbidden",
      404: "Not Found",
      413: "Payload Too Large",
      429: "Too Many Requests",
    }[status] ?? "Internal Server Error"
  );
}
