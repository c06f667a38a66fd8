/**
 * Test databases. TEST_DATABASE_URL set → a fresh PostgreSQL database per call (dropped on release), so
 * files run in parallel without sharing rows; unset → in-memory PGlite. `drivers()` lists what to run.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export type TestDriver = "pglite" | "postgres";

const adminUrl = () => process.env.TEST_DATABASE_URL;

/** Drivers that data-layer tests run against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function drivers(): TestDriver[] {
  return adminUrl() ? ["pglite", "postgres"] : ["pglite"];
}

/** The driver for tests that need only one: PostgreSQL when available (it is what production runs). */
export function defaultDriver(): TestDriver {
  return adminUrl() ? "postgres" : "pglite";
}

export interface TestDatabase {
  databaseUrl?: string;
  pgliteDir: string;
  release(): Promise<void>;
}

export async function createTestDatabase(driver: TestDriver = defaultDriver()): Promise<TestDatabase> {
  const admin = adminUrl();
  if (driver === "pglite" || !admin) return { pgliteDir: "memory://", release: async () => {} };
  const name = `redline_test_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    pgliteDir: "memory://",
    async release() {
      const dropper = new pg.Client({ connectionString: admin });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
