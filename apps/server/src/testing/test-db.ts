/**
 * Test databases. TEST_DATABASE_URL set → a fresh PostgreSQL database per call (dropped on release), so
 * files run in parallel without sharing rows; unset → in-memory PGlite. `drivers()` lists what to run.
 *
 * Neither starts empty: migrating a new database (our SQL migrations, then the job queue's schema) costs
 * seconds, and the suite makes hundreds. The first call of a run migrates one database and keeps it — as
 * a PostgreSQL template database, and as a PGlite data-directory tarball in the temp folder — named by a
 * hash of the migrations, so a change to them makes a new one; every later database is a copy of it. The
 * app still runs its migrations on start, finding them applied.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrationsFolder, openDatabase } from "../db/index.ts";
import { startQueue } from "../lib/queue.ts";

export type TestDriver = "pglite" | "postgres";

const adminUrl = () => process.env.TEST_DATABASE_URL;

/** Drivers that data-layer tests run against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function drivers(): TestDriver[] {
  return adminUrl() ? ["pglite", "postgres"] : ["pglite"];
}

/**
 * Drivers for tests of the HTTP routes' own rules — validation, authorization, what is answered — where the
 * database only stores: the production driver alone when TEST_DATABASE_URL is set, else PGlite (ADR 0019).
 * Where the database's own behaviour is the subject (transactions and concurrent writers, limits and
 * counters under load, LISTEN/NOTIFY and the caches it feeds, the job queue, sessions, durability after a
 * crash) tests use `drivers()`: both.
 */
export function routeDrivers(): TestDriver[] {
  return [defaultDriver()];
}

/** The driver for tests that need only one: PostgreSQL when available (it is what production runs). */
export function defaultDriver(): TestDriver {
  return adminUrl() ? "postgres" : "pglite";
}

export interface TestDatabase {
  databaseUrl?: string;
  pgliteDir: string;
  pgliteSnapshot?: Blob;
  release(): Promise<void>;
}

export async function createTestDatabase(driver: TestDriver = defaultDriver()): Promise<TestDatabase> {
  const admin = adminUrl();
  if (driver === "pglite" || !admin)
    return { pgliteDir: "memory://", pgliteSnapshot: await pgliteSnapshot(), release: async () => {} };
  const template = await postgresTemplate(admin);
  const name = `redline_test_${randomBytes(6).toString("hex")}`;
  await withClient(admin, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    pgliteDir: "memory://",
    async release() {
      await withClient(admin, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** What a migrated database depends on: the migration files and the job queue's version. */
const schemaHash = (() => {
  let hash: string | undefined;
  return () => {
    if (hash) return hash;
    const digest = createHash("sha256");
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
        a.name.localeCompare(b.name),
      )) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else digest.update(entry.name).update(readFileSync(full));
      }
    };
    walk(migrationsFolder);
    for (const name of ["pg-boss", "@electric-sql/pglite"]) digest.update(packageVersion(name));
    hash = digest.digest("hex").slice(0, 12);
    return hash;
  };
})();

function packageVersion(name: string): string {
  for (let dir = migrationsFolder; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, "node_modules", name, "package.json");
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, "utf8")).version as string;
  }
  return "?";
}

/** Runs our migrations (on open) and installs the job queue's schema, then closes. */
async function migrate(options: { databaseUrl?: string; pgliteDir: string }): Promise<Blob | undefined> {
  const database = await openDatabase(options);
  try {
    const jobs = await startQueue(database);
    await jobs.stop();
    return await database.dumpDataDir?.();
  } finally {
    await database.close();
  }
}

let snapshot: Promise<Blob> | undefined;

function pgliteSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const dir = path.join(os.tmpdir(), "redline-test-db");
    const file = path.join(dir, `pglite-${schemaHash()}.tar`);
    if (existsSync(file)) return new Blob([await readFile(file)]);
    const blob = (await migrate({ pgliteDir: "memory://" }))!;
    await mkdir(dir, { recursive: true });
    const partial = `${file}.${randomBytes(4).toString("hex")}`;
    await writeFile(partial, Buffer.from(await blob.arrayBuffer()));
    await rename(partial, file); // whole or absent, for the other workers reading it
    return blob;
  })();
  return snapshot;
}

let template: Promise<string> | undefined;

/** The migrated template database on the server, made once (under a lock: workers start together). */
function postgresTemplate(admin: string): Promise<string> {
  template ??= withClient(admin, async (client) => {
    const name = `redline_template_${schemaHash()}`;
    await client.query("SELECT pg_advisory_lock(72340172)");
    try {
      const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (exists.rowCount) return name;
      const building = `${name}_build`;
      await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${building}`);
      const url = new URL(admin);
      url.pathname = `/${building}`;
      await migrate({ databaseUrl: url.toString(), pgliteDir: "memory://" });
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      // Templates of older migrations are of no use any more — but a few of the newest are kept: other
      // checkouts of the repository (branches under way) may be testing against them on this server now.
      const old = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'redline\\_template\\_%' AND datname <> $1
          ORDER BY oid DESC OFFSET 4`,
        [name],
      );
      for (const { datname } of old.rows)
        await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      return name;
    } finally {
      await client.query("SELECT pg_advisory_unlock(72340172)");
    }
  });
  return template;
}
