/**
 * One schema, two drivers: embedded PGlite (real Postgres in WASM) when no DATABASE_URL is given,
 * PostgreSQL through `pg` otherwise. The same SQL migrations run at start-up for both.
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
import * as schema from "./schema/index.ts";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = "pglite" | "postgres";

/** Plain SQL on the same connection(s), for libraries that bring their own SQL (the job queue). */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  executeSql: ExecuteSql;
  /** LISTEN on a channel; returns the function that stops listening. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

/** `pgliteDir` may be a folder or "memory://" (tests). */
export async function openDatabase(options: {
  databaseUrl?: string;
  pgliteDir: string;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    const executeSql: ExecuteSql = async (text, values) => ({ rows: (await pool.query(text, values)).rows });
    const listeners: pg.Client[] = [];
    // LISTEN needs a connection of its own, outside the pool, for as long as it listens.
    const listen = async (channel: string, onPayload: (payload: string) => void) => {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      client.on("notification", (message) => {
        if (message.channel === channel && message.payload) onPayload(message.payload);
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      listeners.push(client);
      return async () => {
        listeners.splice(listeners.indexOf(client), 1);
        await client.end();
      };
    };
    const close = async () => {
      await Promise.all(listeners.map((client) => client.end()));
      await pool.end();
    };
    return { db: db as unknown as Database, kind: "postgres", executeSql, listen, close };
  }
  const client = new PGlite(options.pgliteDir);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
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
  return { db: db as unknown as Database, kind: "pglite", executeSql, listen, close: () => client.close() };
}

export { schema };
