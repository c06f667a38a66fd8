/**
 * `npm run backup`: the database and the stored files it references, as one archive (tar + gzip):
 *
 *   manifest.json       format and version, the schema's migration level, when, rows per table, files
 *   database/           PostgreSQL: one COPY file per table + jobs.json; PGlite: pglite.tar (dumpDataDir)
 *   files/<key>         every file a row of that same snapshot references, read through the store
 *   auth-secret         the secret sessions, tokens and links were signed with
 *
 * Consistent while the app writes: PostgreSQL is read in one REPEATABLE READ transaction, PGlite is dumped
 * by the process that holds it (pglite-backup-socket.ts) between two statements; the files are those the
 * snapshot's rows name (the record of stored files, ADR 0022), so a file written later is not needed and
 * one removed meanwhile (its row deleted after the snapshot) is listed as missing in the manifest.
 */
import { createWriteStream, existsSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import * as tar from "tar";
import type { DatabaseKind } from "../db/index.ts";
import type { AppConfig } from "../env.ts";
import { lockDataDir } from "../lib/data-dir-lock.ts";
import { isValidKey, type Storage } from "../lib/storage/storage.ts";
import { levelOf, type MigrationLevel } from "./migrations.ts";
import { requestDump } from "./pglite-backup-socket.ts";
import { type DumpedTable, dumpPostgres } from "./postgres-dump.ts";

export const BACKUP_FORMAT = "redline-backup";
export const BACKUP_VERSION = 1;

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  database: {
    kind: DatabaseKind;
    level: MigrationLevel;
    /** PostgreSQL: the dumped tables, in `database/`. */
    tables?: DumpedTable[];
    sequences?: { name: string; value: string | null }[];
  };
  /** Rows per table of our schema. */
  counts: Record<string, number>;
  files: { count: number; bytes: number; missing: string[] };
}

/** `target` is the archive's file name (`….tar.gz`) or a folder, where it gets a dated name. */
export async function backup(options: {
  config: AppConfig;
  storage: Storage;
  target: string;
}): Promise<{ file: string; manifest: Manifest }> {
  const { config, storage } = options;
  const file = await archiveName(options.target);
  const staging = await mkdtemp(`${file}.partial-`);
  try {
    await mkdir(path.join(staging, "database"));
    const createdAt = new Date().toISOString();
    const snapshot = config.databaseUrl
      ? await snapshotPostgres(config.databaseUrl, staging)
      : await snapshotPglite(config.pgliteDir, staging);
    const { level } = snapshot.database;
    if (!Number.isInteger(level.count) || level.count < 0)
      throw new Error(
        `The database is at ${level.tag}, which this Redline's migrations do not know: back it up with the release that runs it.`,
      );
    const files = await copyFiles(storage, snapshot.storedKeys, path.join(staging, "files"));
    await writeFile(path.join(staging, "auth-secret"), config.authSecret, { mode: 0o600 });
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt,
      database: snapshot.database,
      counts: snapshot.counts,
      files,
    };
    await writeFile(path.join(staging, "manifest.json"), JSON.stringify(manifest, null, 2));
    const partial = `${staging}.tar.gz`;
    await tar.c({ gzip: true, cwd: staging, file: partial, portable: true }, [
      "manifest.json",
      "auth-secret",
      "database",
      "files",
    ]);
    await rename(partial, file); // whole or absent
    return { file, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(`${staging}.tar.gz`, { force: true });
  }
}

async function archiveName(target: string): Promise<string> {
  const resolved = path.resolve(target);
  if (/\.(tar\.gz|tgz)$/.test(target)) {
    await mkdir(path.dirname(resolved), { recursive: true });
    return resolved;
  }
  await mkdir(resolved, { recursive: true });
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return path.join(resolved, `redline-backup-${stamp}.tar.gz`);
}

interface Snapshot {
  database: Manifest["database"];
  counts: Record<string, number>;
  /** Keys the snapshot's rows reference; null before the record of stored files existed (all files). */
  storedKeys: string[] | null;
}

async function snapshotPostgres(url: string, staging: string): Promise<Snapshot> {
  const dump = await dumpPostgres(url, path.join(staging, "database"));
  await writeFile(path.join(staging, "database", "jobs.json"), JSON.stringify(dump.queue));
  const counts = Object.fromEntries(
    dump.tables.filter((table) => table.schema === "public").map((table) => [table.name, table.rows]),
  );
  return {
    database: { kind: "postgres", level: dump.level, tables: dump.tables, sequences: dump.sequences },
    counts,
    storedKeys: dump.storedKeys,
  };
}

async function snapshotPglite(pgliteDir: string, staging: string): Promise<Snapshot> {
  const tarball = (await requestDump(pgliteDir)) ?? (await dumpStoppedPglite(pgliteDir));
  await writeFile(path.join(staging, "database", "pglite.tar"), tarball);
  // The dump is read back, not the live database: counts and files are those of the dumped instant.
  const copy = new PGlite({ loadDataDir: new Blob([new Uint8Array(tarball)]) });
  try {
    const query = (text: string) => copy.query(text);
    const level = await levelOf(query);
    const tables = await copy.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables.rows) {
      const result = await copy.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${name.replace(/"/g, '""')}"`,
      );
      counts[name] = result.rows[0]!.n;
    }
    const storedKeys =
      "stored_files" in counts
        ? (await copy.query<{ key: string }>("SELECT DISTINCT key FROM stored_files")).rows.map(
            (row) => row.key,
          )
        : null;
    return { database: { kind: "pglite", level }, counts, storedKeys };
  } finally {
    await copy.close();
  }
}

/** No server holds the folder: take its lock ourselves (a server starting meanwhile waits its turn). */
async function dumpStoppedPglite(pgliteDir: string): Promise<Buffer> {
  if (!existsSync(path.join(pgliteDir, "PG_VERSION")))
    throw new Error(`There is no database at ${pgliteDir} (DATA_DIR) to back up.`);
  const unlock = await lockDataDir(pgliteDir);
  try {
    const database = new PGlite(pgliteDir);
    try {
      // Before it is ready, dumpDataDir would wait on the start-up it holds the lock against.
      await database.waitReady;
      return Buffer.from(await (await database.dumpDataDir("none")).arrayBuffer());
    } finally {
      await database.close();
    }
  } finally {
    await unlock();
  }
}

async function copyFiles(
  storage: Storage,
  storedKeys: string[] | null,
  into: string,
): Promise<Manifest["files"]> {
  await mkdir(into, { recursive: true });
  let keys = storedKeys;
  if (!keys) {
    keys = [];
    for await (const listed of storage.list()) keys.push(listed.key);
  }
  const missing: string[] = [];
  let count = 0;
  let bytes = 0;
  const queue = keys.filter(isValidKey).sort();
  const copyNext = async (): Promise<void> => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
      const stored = await storage.get(key);
      if (!stored) {
        missing.push(key);
        continue;
      }
      const file = path.join(into, ...key.split("/"));
      await mkdir(path.dirname(file), { recursive: true });
      await pipeline(stored.stream, createWriteStream(file));
      count++;
      bytes += (await stat(file)).size;
    }
  };
  // A few at a time: S3 answers each request slowly, a disk does not mind.
  await Promise.all(Array.from({ length: 4 }, copyNext));
  return { count, bytes, missing: missing.sort() };
}
