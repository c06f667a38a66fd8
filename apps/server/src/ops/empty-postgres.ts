/** Tests only: a PostgreSQL database with nothing in it (not the migrated copy test databases start from). */
import { randomBytes } from "node:crypto";
import pg from "pg";

export async function emptyPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error("TEST_DATABASE_URL is not set");
  const name = `redline_empty_${randomBytes(6).toString("hex")}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
