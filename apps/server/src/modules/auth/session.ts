/**
 * Who is behind a request. Every signed-in API call pays for this, so the common case costs no query:
 * the session cookie's signature is checked in process (HMAC-SHA256 with the auth secret, as
 * better-auth signs it), then the session and its user come from this process's session cache
 * (session-cache.ts), which every process empties of a user the moment a session or user row changes
 * (database triggers, LISTEN) — sign-out, revocation and account deletion stay effective at once,
 * everywhere. A miss reads the session row and its user together in one indexed query. Only a
 * session that is expired or due for its sliding refresh goes through better-auth's own getSession,
 * which extends or deletes it exactly as before.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Database } from "../../db/index.ts";
import { prepared } from "../../db/prepared.ts";
import { sessions, type UserRow, users } from "../../db/schema/index.ts";
import { ForbiddenError, UnauthorizedError } from "../../lib/errors.ts";
import { type PersonPrincipal, personOf, type SessionPrincipal } from "../../lib/principal.ts";
import { authHeaders } from "./auth.routes.ts";
import type { Auth } from "./auth.ts";
import { sessionCacheOf } from "./session-cache.ts";

/** A person acting (their session, API token or the browser extension), read from the request's principal. */
export interface Actor {
  /** How they came: the policies are told (lib/policy.ts `policyActorOf`). */
  kind: PersonPrincipal["kind"];
  user: UserRow;
  sessionCreatedAt: Date;
}

interface SessionSettings {
  cookieName: string;
  secret: string;
  expiresInMs: number;
  updateAgeMs: number;
}

const settingsOf = new WeakMap<Auth, Promise<SessionSettings>>();

function sessionSettings(auth: Auth): Promise<SessionSettings> {
  let settings = settingsOf.get(auth);
  if (!settings) {
    settings = auth.$context.then((context) => ({
      cookieName: context.authCookies.sessionToken.name,
      secret: context.secret,
      expiresInMs: context.sessionConfig.expiresIn * 1000,
      updateAgeMs: context.sessionConfig.updateAge * 1000,
    }));
    settingsOf.set(auth, settings);
  }
  return settings;
}

/** The session token of a correctly signed session cookie, or null. */
export function signedSessionToken(
  cookieHeader: string | undefined,
  name: string,
  secret: string,
): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const separator = part.indexOf("=");
    if (separator === -1 || part.slice(0, separator).trim() !== name) continue;
    let value: string;
    try {
      value = decodeURIComponent(part.slice(separator + 1).trim());
    } catch {
      return null;
    }
    const dot = value.lastIndexOf(".");
    if (dot < 1) return null;
    const token = value.slice(0, dot);
    const signature = Buffer.from(value.slice(dot + 1));
    const expected = Buffer.from(createHmac("sha256", secret).update(token).digest("base64"));
    return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : null;
  }
  return null;
}

// Built once per database: composing the query costs more than running it.
const sessionQuery = (db: Database) =>
  prepared(db, "session_actor", () =>
    db
      .select({ user: users, createdAt: sessions.createdAt, expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.token, sql.placeholder("token")))
      .prepare("session_actor"),
  );

/**
 * The session behind a request's cookie, or null — read once per request by the principal hook
 * (principal-hook.ts) for the routes that accept sessions; everything after reads `request.principal`.
 */
export async function resolveSession(
  auth: Auth,
  db: Database,
  request: FastifyRequest,
): Promise<SessionPrincipal | null> {
  const settings = await sessionSettings(auth);
  const token = signedSessionToken(request.headers.cookie, settings.cookieName, settings.secret);
  if (!token) return null;
  const cache = sessionCacheOf(db);
  const held = cache?.get(token);
  if (held && !held.user.disabledAt) return session(held.user, held.sessionCreatedAt);
  const began = cache?.begin() ?? 0;
  const [row] = await sessionQuery(db).execute({ token });
  if (!row || row.user.disabledAt) return null;
  const now = Date.now();
  const refreshAt = row.expiresAt.getTime() - settings.expiresInMs + settings.updateAgeMs;
  const freshUntil = Math.min(row.expiresAt.getTime(), refreshAt);
  if (freshUntil > now) {
    cache?.set(token, { user: row.user, sessionCreatedAt: row.createdAt, freshUntil }, began);
    return session(row.user, row.createdAt);
  }
  const actor = await slowActor(auth, db, request);
  return actor && session(actor.user, actor.sessionCreatedAt);
}

const session = (user: UserRow, createdAt: Date): SessionPrincipal => ({ kind: "session", user, createdAt });

/** The person behind a request (their session, API token or the extension), or null. */
export function getActor(request: FastifyRequest): Actor | null {
  const person = personOf(request.principal);
  return person && { kind: person.kind, user: person.user, sessionCreatedAt: person.createdAt };
}

/** better-auth's own reading: refreshes a session due for it, deletes an expired one. */
async function slowActor(auth: Auth, db: Database, request: FastifyRequest): Promise<Actor | null> {
  const session = await auth.api.getSession({ headers: authHeaders(request) });
  if (!session) return null;
  const [user] = await db.select().from(users).where(eq(users.id, session.user.id));
  if (!user || user.disabledAt) return null;
  return { kind: "session", user, sessionCreatedAt: new Date(session.session.createdAt) };
}

/** Signed in, and (unless `allowUnverified`) with a verified e-mail. */
export function requireActor(request: FastifyRequest, options: { allowUnverified?: boolean } = {}): Actor {
  const actor = getActor(request);
  if (!actor) throw new UnauthorizedError();
  if (!options.allowUnverified && !actor.user.emailVerified) {
    throw new ForbiddenError("Verify your e-mail first.", "auth/email-not-verified");
  }
  return actor;
}

/** The id of the session the request's cookie names (the extension's credential is handed from it). */
export async function sessionIdOf(auth: Auth, db: Database, request: FastifyRequest): Promise<string | null> {
  if (request.principal?.kind !== "session") return null;
  const settings = await sessionSettings(auth);
  const token = signedSessionToken(request.headers.cookie, settings.cookieName, settings.secret);
  if (!token) return null;
  const [row] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.token, token));
  return row?.id ?? null;
}
