/**
 * Signed-in sessions held in process memory, so a request pays for its session with a map lookup
 * instead of a query. Correctness comes from the database: triggers (migration 0008) announce every
 * change to a session or a user on the `redline_auth` channel — sign-out, revocation, refresh,
 * profile edits, verification, deletion — whichever code or process made it, and every process forgets
 * what it held as the change commits. Within this process a write request forgets its own user before
 * its answer leaves (see `forgetAfterWrites`), so a tab never reads its own change stale. While the
 * listening connection is lost nothing is cached; a fill that raced an invalidation is dropped. API tokens
 * resolved by api-tokens.ts are held here too, keyed by their hash, and forgotten with their owner.
 */
import type { FastifyInstance } from "fastify";
import type { Database, DatabaseHandle } from "../../db/index.ts";
import type { UserRow } from "../../db/schema/index.ts";

export const AUTH_CHANNEL = "redline_auth";
/** Entries live at most this long even if no change is heard (belt and braces). */
const MAX_AGE_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;

export interface CachedSession {
  user: UserRow;
  sessionCreatedAt: Date;
  /** When the session itself needs the slow path again (expiry or sliding refresh). */
  freshUntil: number;
  /** Set when the entry is an API token's (keyed by its hash), not a cookie session's. */
  apiToken?: { id: string; scope: "read" | "read-write"; kind: "api" | "extension" };
}

interface Entry extends CachedSession {
  cachedAt: number;
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Ticks on every invalidation; a fill started before an invalidation that concerns it is dropped. */
  private clock = 0;
  private clearedAt = 0;
  private readonly userForgottenAt = new Map<string, number>();
  private listening = true;
  private readonly observers = new Set<(userId: string | null) => void>();

  /**
   * Told whenever this cache forgets a user (their id) or everything (null) — heard from the database or
   * after a write of this process — so caches of what users look like to others can forget them too.
   */
  observe(observer: (userId: string | null) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  get isListening(): boolean {
    return this.listening;
  }

  /** Pass to `set`: the moment a fill began. */
  begin(): number {
    return this.clock;
  }

  get(token: string, now = Date.now()): CachedSession | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.freshUntil <= now || entry.cachedAt + MAX_AGE_MS <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return entry;
  }

  set(token: string, session: CachedSession, began: number): void {
    if (!this.listening || this.clearedAt > began) return;
    if ((this.userForgottenAt.get(session.user.id) ?? 0) > began) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { ...session, cachedAt: Date.now() });
  }

  forgetUser(userId: string): void {
    this.clock++;
    if (this.userForgottenAt.size >= MAX_ENTRIES) this.clear();
    this.userForgottenAt.set(userId, this.clock);
    for (const [token, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(token);
    for (const observer of this.observers) observer(userId);
  }

  clear(): void {
    this.clock++;
    this.clearedAt = this.clock;
    this.userForgottenAt.clear();
    this.entries.clear();
    for (const observer of this.observers) observer(null);
  }

  /** The change channel was lost (stop caching, forget everything) or is heard again. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<Database, SessionCache>();

/** The cache `getActor` uses for this database, if the app started one. */
export function sessionCacheOf(db: Database): SessionCache | undefined {
  return caches.get(db);
}

/** Starts this process's cache for a database: listens for changes; returns the stop function. */
export async function startSessionCache(database: DatabaseHandle): Promise<() => Promise<void>> {
  const cache = new SessionCache();
  const unlisten = await database.listen(
    AUTH_CHANNEL,
    (payload) => {
      let change: { userId?: unknown };
      try {
        change = JSON.parse(payload) as typeof change;
      } catch {
        cache.clear();
        return;
      }
      if (typeof change.userId === "string") cache.forgetUser(change.userId);
      else cache.clear();
    },
    (state) => cache.setListening(state === "listening"),
  );
  caches.set(database.db, cache);
  return async () => {
    caches.delete(database.db);
    await unlisten();
  };
}

/**
 * Within this process, a request that may have changed its own user or session (any write but those
 * declared `keepsCaller`, and every auth route, e.g. sign-out or a verification link) makes the cache
 * forget before the answer is sent: the next request reads the database even if the channel's echo has
 * not arrived yet.
 */
export function forgetAfterWrites(app: FastifyInstance, db: Database): void {
  app.addHook("onSend", async (request, _reply, payload) => {
    const cache = caches.get(db);
    if (!cache) return payload;
    if (request.url.startsWith("/api/auth/")) cache.clear();
    else if (
      request.method !== "GET" &&
      request.method !== "HEAD" &&
      !request.routeOptions.config?.doc?.keepsCaller
    ) {
      const userId = request.sessionUserId;
      if (userId) cache.forgetUser(userId);
    }
    return payload;
  });
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `getActor` when a signed-in user was found (the cache forgets them after a write). */
    sessionUserId?: string;
  }
}
