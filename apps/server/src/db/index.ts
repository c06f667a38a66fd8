/**
 * One schema, two drivers: embedded PGlite (real Postgres in WASM) when no DATABASE_URL is given,
 * PostgreSQL through `pg` otherwise. The same SQL migrations run at start-up for both. An embedded
 * database has one writer: its folder is locked for the process's life (several processes need PostgreSQL).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { lockDataDir } from "../lib/data-dir-lock.ts";
import * as schema from "./schema/index.ts";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = "pglite" | "postgres";

/** Plain SQL on the same connection(s), for libraries that bring their own SQL (the job queue). */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  executeSql: ExecuteSql;
  /**
   * LISTEN on a channel; returns the function that stops listening. `onGap` is called when the
   * listening connection is lost (events may be missed from then on) and again once it listens anew.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onGap?: (state: "lost" | "listening") => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /**
   * PostgreSQL: holds an advisory lock named `key` on a pooled connection until the returned function
   * releases it — or until this process dies and PostgreSQL drops its connections, so another process
   * can tell that work is orphaned (`isLockHeld`). PGlite has one process, so neither is needed.
   */
  holdLock?(key: string): Promise<() => Promise<void>>;
  /** Whether any session holds the advisory lock `key` (PostgreSQL). */
  isLockHeld?(key: string): Promise<boolean>;
  /** The connection pool's state (PostgreSQL; PGlite has no pool), read by /metrics. */
  pool?(): { total: number; idle: number; waiting: number };
  /** An embedded database's files as a tarball (PGlite `dumpDataDir`), e.g. a migrated one to start from. */
  dumpDataDir?(): Promise<Blob>;
}

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

/**
 * `pgliteDir` may be a folder or "memory://" (tests); `pgliteSnapshot` starts an in-memory database from
 * saved files instead of an empty cluster (the tests start from one already migrated: testing/test-db.ts).
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  pgliteDir: string;
  pgliteSnapshot?: Blob;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // A connection that cannot be made within 5 s fails (the request gets 503) instead of waiting for ever.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5000,
    });
    // A connection the server drops (restart, failover) must not crash the process, whether it sits idle in
    // the pool (the pool re-emits the loss) or is checked out between two statements of a transaction (only
    // the client hears it; the statement waiting on it fails). Each loss is logged once, by its client.
    pool.on("error", () => {});
    pool.on("connect", (client) => {
      client.on("error", (error) => console.error(`database connection lost: ${error.message}`));
    });
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    const executeSql: ExecuteSql = async (text, values) => ({ rows: (await pool.query(text, values)).rows });
    const listeners = new Set<() => Promise<void>>();
    // LISTEN needs a connection of its own, outside the pool, for as long as it listens; if the
    // connection is lost it is opened again (events sent meanwhile are missed: clients resync on reconnect).
    const listen = async (
      channel: string,
      onPayload: (payload: string) => void,
      onGap?: (state: "lost" | "listening") => void,
    ) => {
      let client: pg.Client | null = null;
      let stopped = false;
      const open = async (): Promise<void> => {
        const next = new pg.Client({ connectionString: options.databaseUrl });
        next.on("notification", (message) => {
          if (message.channel === channel && message.payload) onPayload(message.payload);
        });
        next.on("error", (error) => {
          console.error(`LISTEN connection lost: ${error.message}`);
          if (stopped) return;
          onGap?.("lost");
          setTimeout(() => void reopen(), 1000);
        });
        await next.connect();
        // Stopped while this connection was being made (a reopen after a loss): it is not kept.
        if (stopped) {
          await next.end().catch(() => {});
          return;
        }
        await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        client = next;
      };
      const reopen = async (): Promise<void> => {
        if (stopped) return;
        try {
          await open();
          onGap?.("listening");
        } catch {
          if (!stopped) setTimeout(() => void reopen(), 1000);
        }
      };
      await open();
      const stop = async () => {
        stopped = true;
        listeners.delete(stop);
        await client?.end().catch(() => {});
      };
      listeners.add(stop);
      return stop;
    };
    const close = async () => {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    };
    const poolState = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    const holdLock = async (key: string) => {
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock(hashtext($1))", [key]);
      } catch (error) {
        client.release(true);
        throw error;
      }
      return async () => {
        // A connection whose unlock fails is dropped, which releases the lock too.
        await client.query("select pg_advisory_unlock(hashtext($1))", [key]).then(
          () => client.release(),
          () => client.release(true),
        );
      };
    };
    // The transaction-scoped try-lock is released as the statement ends: it only asks.
    const isLockHeld = async (key: string) =>
      !(await pool.query<{ free: boolean }>("select pg_try_advisory_xact_lock(hashtext($1)) as free", [key]))
        .rows[0]?.free;
    return {
      db: db as unknown as Database,
      kind: "postgres",
      executeSql,
      listen,
      close,
      pool: poolState,
      holdLock,
      isLockHeld,
    };
  }
  // One process per embedded database folder (see lib/data-dir-lock.ts); memory:// has none.
  const isInMemory = options.pgliteDir.startsWith("memory://");
  const unlock = isInMemory ? async () => {} : await lockDataDir(options.pgliteDir);
  const client = new PGlite(
    options.pgliteDir,
    isInMemory && options.pgliteSnapshot ? { loadDataDir: options.pgliteSnapshot } : {},
  );
  const db = drizzlePglite(client, { schema });
  try {
    await migratePglite(db, { migrationsFolder });
  } catch (error) {
    await client.close().catch(() => {});
    await unlock();
    throw error;
  }
  // PGlite's query() takes one statement; parameterless SQL may hold several (exec()).
  const executeSql: ExecuteSql = async (text, values) => {
    if (values && values.length > 0) return { rows: (await client.query(text, values)).rows };
    const results = await client.exec(text);
    return { rows: results.at(-1)?.rows ?? [] };
  };
  const listen = async (channel: string, onPayload: (payload: string) => void) => {
    const stop = await client.listen(channel, onPayload);
    return async () => stop();
  };
  const close = async () => {
    await client.close();
    await unlock();
  };
  const dumpDataDir = async () => (await client.dumpDataDir("none")) as Blob;
  return { db: db as unknown as Database, kind: "pglite", executeSql, listen, close, dumpDataDir };
}

export { schema };
