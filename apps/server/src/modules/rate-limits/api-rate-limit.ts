/**
 * Rate limits on the API's writes (every non-GET /api/* call except /api/auth/*, which better-auth
 * limits itself): API_RATE_LIMIT per minute, and API_RATE_LIMIT_EXPENSIVE per minute on the calls that
 * start captures or store files, counted on top. A signed-in caller is counted by user id (one person
 * behind one office IP does not starve the others), an API token by itself (every request, reads too:
 * API_TOKEN_RATE_LIMIT per minute, on top), a guest or anonymous caller by IP.
 *
 * The counters live in the database (better-auth's `rate_limits` table, keys prefixed `api:`), so every
 * process behind a load balancer sees the same count; one upsert per write is the price.
 */

import { randomUUID } from "node:crypto";
import fastifyRateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context.ts";
import type { ExecuteSql } from "../../db/index.ts";
import { TooManyRequestsError } from "../../lib/errors.ts";
import { acceptedBy, bearerOf, personOf, SAFE_METHODS } from "../../lib/principal.ts";

const WINDOW_MS = 60_000;

/** Routes (as registered) that start a capture or store uploaded bytes. */
const EXPENSIVE_ROUTES = new Set([
  "POST /api/projects/:projectId/pages",
  "POST /api/projects/:projectId/uploads",
  "POST /api/pages/:pageId/versions",
  "POST /api/projects/:projectId/update-all",
  "POST /api/projects/:projectId/attachments",
  "POST /api/projects/:projectId/thumbnail",
  "POST /api/versions/:versionId/changes/images",
  "POST /api/me/photo",
  // Screenshots, and a mail to the installation's people.
  "POST /api/support/feedback",
  "POST /api/teams/:teamId/branding/logo",
  "POST /api/teams/:teamId/branding/icon",
  // Each checks a password and mails two addresses.
  "POST /api/me/email-change",
  "POST /api/me/email-change/resend",
  // Each check asks DNS.
  "POST /api/teams/:teamId/domain/check",
]);

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * Counts one hit on `key` in a fixed window (the row's last_request holds when the window started) and
 * returns the count so far and the milliseconds left in the window. Also used by routes with a limit of
 * their own (modules/review-requests).
 */
export async function countHit(
  executeSql: ExecuteSql,
  key: string,
  timeWindow: number,
): Promise<{ current: number; ttl: number }> {
  const now = Date.now();
  const { rows } = await executeSql(
    `INSERT INTO rate_limits (id, key, count, last_request) VALUES ($1, $2, 1, $3)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN rate_limits.last_request <= $4 THEN 1 ELSE rate_limits.count + 1 END,
       last_request = CASE WHEN rate_limits.last_request <= $4 THEN $3 ELSE rate_limits.last_request END
     RETURNING count, last_request`,
    [randomUUID(), key, now, now - timeWindow],
  );
  const row = rows[0] as { count: number | string; last_request: number | string };
  return { current: Number(row.count), ttl: Number(row.last_request) + timeWindow - now };
}

function databaseStore(executeSql: ExecuteSql) {
  return class DatabaseStore {
    incr(key: string, callback: IncrCallback, timeWindow: number) {
      countHit(executeSql, key, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }
    child() {
      return new DatabaseStore();
    }
  };
}

export async function installApiRateLimits(app: FastifyInstance, ctx: AppContext) {
  const { config } = ctx;
  if (!config.rateLimitEnabled) return;
  await app.register(fastifyRateLimit, { global: false, store: databaseStore(ctx.database.executeSql) });

  const callers = new WeakMap<FastifyRequest, string>();
  const callerKey = async (request: FastifyRequest): Promise<string> => {
    let key = callers.get(request);
    if (!key) {
      // The principal the front door resolved (modules/auth/principal-hook.ts): no query of its own.
      const bearer = bearerOf(request.principal);
      const person = personOf(request.principal);
      key = bearer ? `token:${bearer.tokenId}` : person ? `user:${person.user.id}` : `ip:${request.ip}`;
      callers.set(request, key);
    }
    return key;
  };
  const limiters = [
    app.createRateLimit({
      max: config.apiRateLimit,
      timeWindow: WINDOW_MS,
      keyGenerator: async (request) => `api:write:${await callerKey(request)}`,
    }),
    app.createRateLimit({
      max: config.apiRateLimitExpensive,
      timeWindow: WINDOW_MS,
      keyGenerator: async (request) => `api:expensive:${await callerKey(request)}`,
    }),
  ] as const;
  const tokenLimiter = app.createRateLimit({
    max: config.apiTokenRateLimit,
    timeWindow: WINDOW_MS,
    keyGenerator: async (request) => `api:token:${bearerOf(request.principal)?.tokenId}`,
  });
  const refuse = (reply: FastifyReply, ttlInSeconds: number) => {
    reply.header("retry-after", ttlInSeconds);
    return new TooManyRequestsError(`Too many requests. Try again in ${ttlInSeconds} s.`);
  };

  app.addHook("onRequest", async (request, reply) => {
    if (bearerOf(request.principal)) {
      const result = await tokenLimiter(request);
      if (!result.isAllowed && result.isExceeded) throw refuse(reply, result.ttlInSeconds);
    }
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith("/api/")) return;
    if (request.url.startsWith("/api/auth/")) return;
    if (acceptedBy(request.routeOptions.config?.doc).includes("signed")) return;
    const isExpensive = EXPENSIVE_ROUTES.has(`${request.method} ${request.routeOptions.url}`);
    for (const limiter of isExpensive ? limiters : limiters.slice(0, 1)) {
      const result = await limiter(request);
      if (result.isAllowed || !result.isExceeded) continue;
      throw refuse(reply, result.ttlInSeconds);
    }
  });
}
