/**
 * Public API tokens: created, listed and revoked by their owner signed in (api-tokens.routes.ts), and
 * resolved here for every /api request that carries `Authorization: Bearer rl_…` — by the principal hook
 * (principal-hook.ts), before the route runs, so the route's declared callers (`accepts`), the token's
 * scope and the same-origin rule are settled in one place. Only a SHA-256 hash of the secret is stored. A resolved token is held in this process's session
 * cache (session-cache.ts) under its hash until it expires, and forgotten the moment the database announces
 * a change to its owner or their tokens (migration 0021's trigger on a revocation) — so a revoked token is
 * refused on its next request in every process. `last_used_at` is written at most once a minute per token
 * per process.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import {
  API_TOKEN_MESSAGES,
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenCreate,
  type ApiTokenCreated,
  apiTokenCreateSchema,
  EXTENSION_CREDENTIAL_NAME,
  EXTENSION_MESSAGES,
  MAX_API_TOKENS,
} from "@redline/shared";
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Database } from "../../db/index.ts";
import { prepared } from "../../db/prepared.ts";
import { type ApiTokenRow, apiTokens, type UserRow, users } from "../../db/schema/index.ts";
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from "../../lib/errors.ts";
import { acceptedBy, type BearerPrincipal, SAFE_METHODS } from "../../lib/principal.ts";
import type { RouteDoc } from "../../lib/routes.ts";
import { sessionCacheOf } from "./session-cache.ts";

const DAY_MS = 86_400_000;
const LAST_USED_EVERY_MS = 60_000;
/** rl_ + 43 base64url characters (32 random bytes). */
const TOKEN_PATTERN = /^rl_[A-Za-z0-9_-]{43}$/;

export const hashToken = (secret: string) => createHash("sha256").update(secret).digest("hex");

export function presentApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    kind: row.kind,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function listApiTokens(db: Database, userId: string): Promise<ApiToken[]> {
  const rows = await db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return rows.map(presentApiToken);
}

/** Creates a token; the secret is returned this once. At most MAX_API_TOKENS per person, even when racing. */
export async function createApiToken(
  db: Database,
  user: UserRow,
  input: ApiTokenCreate,
  now = new Date(),
): Promise<ApiTokenCreated> {
  const { name, scope, expiresInDays } = apiTokenCreateSchema.parse(input);
  const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await db.transaction(async (tx) => {
    // The owner's row serialises creations, so two at once cannot both pass the count.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
    const [held] = await tx.select({ n: count() }).from(apiTokens).where(eq(apiTokens.userId, user.id));
    if ((held?.n ?? 0) >= MAX_API_TOKENS)
      throw new ConflictError(API_TOKEN_MESSAGES.tooMany, "too-many-tokens");
    const [created] = await tx
      .insert(apiTokens)
      .values({
        id: randomUUID(),
        userId: user.id,
        name,
        scope,
        tokenHash: hashToken(secret),
        prefix: secret.slice(0, 7),
        expiresAt: expiresInDays === null ? null : new Date(now.getTime() + expiresInDays * DAY_MS),
        createdAt: now,
      })
      .returning();
    return created!;
  });
  return { token: presentApiToken(row), secret };
}

/** Deletes one of the owner's tokens; another person's is answered as unknown. */
export async function revokeApiToken(db: Database, userId: string, tokenId: string): Promise<void> {
  const deleted = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)))
    .returning({ id: apiTokens.id });
  if (deleted.length === 0) throw new NotFoundError("Token not found.", "token-not-found");
}

interface LiveToken {
  id: string;
  scope: ApiTokenRow["scope"];
  kind: ApiTokenRow["kind"];
  createdAt: Date;
  user: UserRow;
}

/** The live token behind a secret, with its owner; null when unknown, expired or its owner is gone. */
export async function findApiToken(
  db: Database,
  secret: string,
  now = Date.now(),
): Promise<LiveToken | null> {
  if (!TOKEN_PATTERN.test(secret)) return null;
  const hash = hashToken(secret);
  const key = `api-token:${hash}`;
  const cache = sessionCacheOf(db);
  const held = cache?.get(key, now);
  if (held?.apiToken) return { ...held.apiToken, createdAt: held.sessionCreatedAt, user: held.user };
  const began = cache?.begin() ?? 0;
  const [found] = await tokenQuery(db).execute({ hash });
  if (!found || found.user.isDeleted || found.user.disabledAt) return null;
  const expiresAt = found.token.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
  if (expiresAt <= now) return null;
  const { id, scope, kind, createdAt } = found.token;
  cache?.set(
    key,
    { user: found.user, sessionCreatedAt: createdAt, freshUntil: expiresAt, apiToken: { id, scope, kind } },
    began,
  );
  return { id, scope, kind, createdAt, user: found.user };
}

// Built once per database: composing the query costs more than running it.
const tokenQuery = (db: Database) =>
  prepared(db, "api_token_principal", () =>
    db
      .select({ token: apiTokens, user: users })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(eq(apiTokens.tokenHash, sql.placeholder("hash")))
      .prepare("api_token_principal"),
  );

/** Mints the browser extension's credential for the session that approved it (ADR 0037); the secret once. */
export async function createExtensionCredential(
  db: Database,
  userId: string,
  sessionId: string,
  now = new Date(),
): Promise<string> {
  const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  await db.insert(apiTokens).values({
    id: randomUUID(),
    userId,
    name: EXTENSION_CREDENTIAL_NAME,
    scope: "read-write",
    kind: "extension",
    sessionId,
    tokenHash: hashToken(secret),
    prefix: secret.slice(0, 7),
    createdAt: now,
  });
  return secret;
}

/**
 * Resolves a bearer header for the principal hook (principal-hook.ts), before the route runs: 401 when the
 * header is malformed or the token is not live, 403 when the route does not accept tokens or a read token
 * tries to write. A request with a token is that token's alone: its cookies are not read. The extension's
 * credential is taken only from the extension's origin (`isExtension`) and only by the routes that accept
 * the extension.
 */
export function bearerResolver(
  db: Database,
  isExtension: (origin: string | undefined) => boolean,
): (request: FastifyRequest, header: string, doc: RouteDoc | undefined) => Promise<BearerPrincipal> {
  const lastWritten = new Map<string, number>();
  return async (request, header, doc) => {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    if (!match) throw new UnauthorizedError(API_TOKEN_MESSAGES.malformed, "token/malformed");
    const found = await findApiToken(db, match[1]!);
    if (!found) throw new UnauthorizedError(API_TOKEN_MESSAGES.invalid, "token/invalid");
    const accepts = acceptedBy(doc);
    if (found.kind === "extension") {
      if (!isExtension(request.headers.origin))
        throw new ForbiddenError(EXTENSION_MESSAGES.notFromExtension, "extension/origin");
      if (!accepts.includes("extension"))
        throw new ForbiddenError(EXTENSION_MESSAGES.notForExtension, "extension/not-allowed");
      return { kind: "extension", user: found.user, tokenId: found.id, createdAt: found.createdAt };
    }
    if (!accepts.includes("token"))
      throw new ForbiddenError(API_TOKEN_MESSAGES.notForTokens, "token/not-allowed");
    if (found.scope === "read" && !SAFE_METHODS.has(request.method) && doc?.writes !== false)
      throw new ForbiddenError(API_TOKEN_MESSAGES.readOnly, "token/read-only");
    const now = Date.now();
    if (now - (lastWritten.get(found.id) ?? 0) >= LAST_USED_EVERY_MS) {
      lastWritten.set(found.id, now);
      if (lastWritten.size > 10_000) lastWritten.clear();
      await db
        .update(apiTokens)
        .set({ lastUsedAt: new Date(now) })
        .where(eq(apiTokens.id, found.id))
        .catch((error: unknown) => request.log.warn({ error }, "could not record a token's last use"));
    }
    return {
      kind: "token",
      user: found.user,
      tokenId: found.id,
      scope: found.scope,
      createdAt: found.createdAt,
    };
  };
}
