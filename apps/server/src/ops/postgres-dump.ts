/**
 * A logical dump of PostgreSQL with nothing but a connection (no pg_dump on the machine): every table of
 * our schema (`public`) and the migrator's (`drizzle`) copied out with COPY inside one REPEATABLE READ
 * transaction, so all of them — and the list of stored files — are one snapshot however the app writes
 * meanwhile. The schema itself is not dumped: it is our migrations, and a restore replays them to the
 * backup's level. Waiting jobs (pg-boss) are kept as data and sent again, since the queue's own tables
 * belong to the library's version.
 */
import { createReadStream, createWriteStream } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { levelOf, type MigrationLevel } from "./migrations.ts";

export interface DumpedTable {
  schema: string;
  name: string;
  columns: string[];
  rows: number;
  file: string;
}

export interface QueueDump {
  queues: { name: string; options: Record<string, unknown> }[];
  jobs: Record<string, unknown>[];
}

export interface PostgresDump {
  level: MigrationLevel;
  tables: DumpedTable[];
  sequences: { name: string; value: string | null }[];
  storedKeys: string[] | null;
}

const SCHEMAS = ["public", "drizzle"];

const quote = (schema: string, name: string) => `${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(name)}`;

async function tablesOf(client: pg.Client): Promise<{ schema: string; name: string; columns: string[] }[]> {
  const { rows } = await client.query<{ schema: string; name: string; columns: string[] }>(
    `SELECT n.nspname AS schema, c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname = ANY($1)
      GROUP BY n.nspname, c.relname
      ORDER BY n.nspname, c.relname`,
    [SCHEMAS],
  );
  return rows;
}

/** Dumps into `dir` (one COPY file per table); the stored-file keys are read in the same snapshot. */
export async function dumpPostgres(url: string, dir: string): Promise<PostgresDump & { queue: QueueDump }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const level = await levelOf((text) => client.query(text));
    const tables: DumpedTable[] = [];
    for (const table of await tablesOf(client)) {
      const file = `${table.schema}.${table.name}.copy`;
      const columns = table.columns.map((column) => pg.escapeIdentifier(column)).join(", ");
      const stream = client.query(
        copyTo(`COPY (SELECT ${columns} FROM ${quote(table.schema, table.name)}) TO STDOUT`),
      );
      await pipeline(stream, createWriteStream(path.join(dir, file)));
      tables.push({ ...table, rows: stream.rowCount, file });
    }
    const sequences = await client.query<{ name: string; value: string | null }>(
      `SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name, last_value::text AS value
         FROM pg_sequences WHERE schemaname = ANY($1)`,
      [SCHEMAS],
    );
    const hasRecord = await client.query("SELECT to_regclass('public.stored_files') IS NOT NULL AS present");
    const storedKeys = (hasRecord.rows[0] as { present: boolean }).present
      ? (await client.query<{ key: string }>("SELECT DISTINCT key FROM stored_files")).rows.map(
          (row) => row.key,
        )
      : null;
    const queue = await dumpQueue(client);
    await client.query("COMMIT");
    return { level, tables, sequences: sequences.rows, storedKeys, queue };
  } finally {
    await client.end();
  }
}

async function dumpQueue(client: pg.Client): Promise<QueueDump> {
  const present = await client.query("SELECT to_regclass('pgboss.job') IS NOT NULL AS present");
  if (!(present.rows[0] as { present: boolean }).present) return { queues: [], jobs: [] };
  const queues = await client.query<{ name: string; options: Record<string, unknown> }>(
    `SELECT name, json_build_object('policy', policy, 'retryLimit', retry_limit, 'retryDelay', retry_delay,
              'retryBackoff', retry_backoff, 'expireInSeconds', expire_seconds,
              'retentionMinutes', retention_minutes, 'deadLetter', dead_letter) AS options
       FROM pgboss.queue`,
  );
  // Waiting, retrying and running jobs; a running one is sent again (it never finished here).
  const jobs = await client.query(
    `SELECT id, name, data, priority, retry_limit AS "retryLimit", retry_delay AS "retryDelay",
            retry_backoff AS "retryBackoff", start_after AS "startAfter", singleton_key AS "singletonKey"
       FROM pgboss.job WHERE state IN ('created', 'retry', 'active')`,
  );
  return { queues: queues.rows, jobs: jobs.rows };
}

/** Whether the database holds anything of ours (or any table at all in our schemas). */
export async function postgresIsEmpty(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query(
    "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = ANY($1) OR schemaname = 'pgboss'",
    [SCHEMAS],
  );
  return (rows[0] as { n: number }).n === 0;
}

/** Removes everything of ours (for `restore --force`). */
export async function clearPostgres(client: pg.Client): Promise<void> {
  await client.query("DROP SCHEMA IF EXISTS pgboss CASCADE");
  await client.query("DROP SCHEMA IF EXISTS drizzle CASCADE");
  await client.query("DROP SCHEMA IF EXISTS public CASCADE");
  await client.query("CREATE SCHEMA public");
}

/**
 * Loads the dumped rows into a database migrated to the dump's level, in one transaction: the tables
 * emptied (migrations may seed), our triggers off while loading (the rows already hold what they
 * computed; only the table's owner is needed, not a superuser), parents before children for the foreign
 * keys, and the sequences set where they were.
 */
export async function loadPostgres(client: pg.Client, dir: string, dump: PostgresDump): Promise<void> {
  await client.query("BEGIN");
  try {
    const order = await loadOrder(client, dump.tables);
    const names = order.map((table) => quote(table.schema, table.name));
    if (names.length > 0) await client.query(`TRUNCATE ${names.join(", ")}`);
    for (const name of names) await client.query(`ALTER TABLE ${name} DISABLE TRIGGER USER`);
    for (const table of order) {
      const columns = table.columns.map((column) => pg.escapeIdentifier(column)).join(", ");
      const stream = client.query(
        copyFrom(`COPY ${quote(table.schema, table.name)} (${columns}) FROM STDIN`),
      );
      await pipeline(createReadStream(path.join(dir, table.file)), stream);
    }
    for (const name of names) await client.query(`ALTER TABLE ${name} ENABLE TRIGGER USER`);
    for (const sequence of dump.sequences)
      if (sequence.value !== null)
        await client.query("SELECT setval($1::regclass, $2::bigint)", [sequence.name, sequence.value]);
    await restampLedger(client);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/**
 * The ledger's events carry the id of the transaction that recorded them (ADR 0025), an id of the cluster
 * they were written in: in another cluster it may lie ahead of every transaction to come. Restored events
 * and cursors are set to the first transaction id, so they come before anything recorded from now on and
 * keep their order (by event id) among themselves.
 */
async function restampLedger(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ present: boolean }>(
    "SELECT to_regclass('public.domain_events') IS NOT NULL AS present",
  );
  if (!rows[0]?.present) return;
  await client.query("UPDATE domain_events SET tx = '1'::xid8");
  await client.query("UPDATE event_cursors SET tx = '1'::xid8");
}

/** The dumped tables, each after the tables its foreign keys point at (in the restored schema). */
async function loadOrder(client: pg.Client, tables: DumpedTable[]): Promise<DumpedTable[]> {
  const known = new Set((await tablesOf(client)).map((table) => `${table.schema}.${table.name}`));
  const missing = tables.filter((table) => !known.has(`${table.schema}.${table.name}`));
  if (missing.length > 0)
    throw new Error(
      `The backup has tables this schema does not: ${missing.map((table) => table.name).join(", ")}`,
    );
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT cn.nspname || '.' || c.relname AS child, pn.nspname || '.' || p.relname AS parent
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace cn ON cn.oid = c.relnamespace
       JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace pn ON pn.oid = p.relnamespace
      WHERE k.contype = 'f' AND k.conrelid <> k.confrelid`,
  );
  const parents = new Map<string, Set<string>>();
  for (const row of rows) parents.set(row.child, (parents.get(row.child) ?? new Set()).add(row.parent));
  const ordered: DumpedTable[] = [];
  const placed = new Set<string>();
  let remaining = [...tables];
  while (remaining.length > 0) {
    const ready = remaining.filter((table) =>
      [...(parents.get(`${table.schema}.${table.name}`) ?? [])].every(
        (parent) =>
          placed.has(parent) || !remaining.some((other) => `${other.schema}.${other.name}` === parent),
      ),
    );
    if (ready.length === 0)
      throw new Error(`Foreign keys form a cycle among: ${remaining.map((table) => table.name).join(", ")}`);
    for (const table of ready) {
      ordered.push(table);
      placed.add(`${table.schema}.${table.name}`);
    }
    remaining = remaining.filter((table) => !placed.has(`${table.schema}.${table.name}`));
  }
  return ordered;
}
