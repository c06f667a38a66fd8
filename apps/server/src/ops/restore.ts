/**
 * `npm run restore`: puts a backup (backup.ts) into the configured instance — the database named by
 * DATABASE_URL or the embedded one under DATA_DIR, the files into the configured store, the signing
 * secret into DATA_DIR. It refuses a database that holds anything unless forced, an archive of a newer
 * backup format, and one whose schema is newer than this code's migrations; the schema is rebuilt at the
 * backup's own migration level, and the app migrates on from there when it starts.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as tar from "tar";
import type { AppConfig } from "../env.ts";
import { lockDataDir } from "../lib/data-dir-lock.ts";
import { startQueue } from "../lib/queue.ts";
import type { Storage } from "../lib/storage/storage.ts";
import { BACKUP_FORMAT, BACKUP_VERSION, type Manifest } from "./backup.ts";
import { journal, latestLevel, migrationsUpTo } from "./migrations.ts";
import { clearPostgres, loadPostgres, postgresIsEmpty, type QueueDump } from "./postgres-dump.ts";

/** A refusal the operator can act on: printed as is, nothing changed. */
export class RestoreRefused extends Error {}

export interface RestoreResult {
  manifest: Manifest;
  files: number;
  notes: string[];
}

export async function restore(options: {
  config: AppConfig;
  storage: Storage;
  archive: string;
  force?: boolean;
}): Promise<RestoreResult> {
  const { config, storage, archive } = options;
  if (!existsSync(archive)) throw new RestoreRefused(`There is no backup at ${archive}.`);
  const dir = await mkdtemp(path.join(os.tmpdir(), "redline-restore-"));
  try {
    await tar.x({ file: archive, cwd: dir }).catch(() => {
      throw new RestoreRefused(`${archive} is not a Redline backup (not a readable .tar.gz archive).`);
    });
    const manifest = await readManifest(dir);
    checkLevel(manifest);
    const kind = config.databaseUrl ? "postgres" : "pglite";
    if (manifest.database.kind !== kind)
      throw new RestoreRefused(
        manifest.database.kind === "pglite"
          ? "This backup is of an embedded (PGlite) database: restore it with DATABASE_URL unset."
          : "This backup is of a PostgreSQL database: restore it with DATABASE_URL set.",
      );
    if (config.databaseUrl) await restorePostgres(config.databaseUrl, dir, manifest, options.force ?? false);
    else await restorePglite(config.pgliteDir, dir, options.force ?? false);
    const files = await restoreFiles(storage, path.join(dir, "files"));
    const notes = await restoreSecret(config, dir);
    return { manifest, files, notes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function readManifest(dir: string): Promise<Manifest> {
  const text = await readFile(path.join(dir, "manifest.json"), "utf8").catch(() => null);
  const manifest = text === null ? null : (JSON.parse(text) as Partial<Manifest>);
  if (manifest?.format !== BACKUP_FORMAT)
    throw new RestoreRefused("This archive is not a Redline backup (it has no Redline manifest).");
  if (typeof manifest.version !== "number" || manifest.version > BACKUP_VERSION)
    throw new RestoreRefused(
      `This backup is in format ${manifest.version}, newer than this Redline reads (${BACKUP_VERSION}). Upgrade Redline, then restore.`,
    );
  return manifest as Manifest;
}

function checkLevel(manifest: Manifest): void {
  const { level } = manifest.database;
  const latest = latestLevel();
  const known = journal()[level.count - 1];
  if (
    !Number.isInteger(level.count) ||
    level.count < 0 ||
    (level.count > 0 && level.count <= latest.count && known?.tag !== level.tag)
  )
    throw new RestoreRefused(
      `This backup's database is at migration ${level.tag}, which this Redline's migrations do not know: restore it with the release that made it.`,
    );
  if (level.count > latest.count)
    throw new RestoreRefused(
      `This backup's database is at migration ${level.tag ?? level.count}, newer than this Redline's schema (${latest.tag}). ` +
        "Upgrade Redline to the release that made the backup (or later), then restore.",
    );
}

async function restorePostgres(url: string, dir: string, manifest: Manifest, force: boolean): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (!(await postgresIsEmpty(client))) {
      if (!force)
        throw new RestoreRefused(
          "The database is not empty: restoring would replace what it holds. Run again with --force to replace it.",
        );
      await clearPostgres(client);
    }
    const migrations = migrationsUpTo(manifest.database.level.count);
    try {
      await migrate(drizzle(client), { migrationsFolder: migrations.folder });
    } finally {
      migrations.dispose();
    }
    await loadPostgres(client, path.join(dir, "database"), {
      level: manifest.database.level,
      tables: manifest.database.tables ?? [],
      sequences: manifest.database.sequences ?? [],
      storedKeys: null,
    });
    await restoreJobs(url, path.join(dir, "database", "jobs.json"));
  } finally {
    await client.end();
  }
}

/** The jobs that were waiting, sent again through the queue of this code's version. */
async function restoreJobs(url: string, file: string): Promise<void> {
  const dump = JSON.parse(await readFile(file, "utf8")) as QueueDump;
  if (dump.queues.length === 0) return;
  // The queue runs statements side by side: a pool, as the app gives it.
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const executeSql = async (text: string, values?: unknown[]) => ({
    rows: (await pool.query(text, values)).rows,
  });
  const jobs = await startQueue({ executeSql } as Parameters<typeof startQueue>[0]);
  try {
    for (const queue of dump.queues)
      if (!(await jobs.queue.getQueue(queue.name)))
        await jobs.queue.createQueue(queue.name, clean(queue.options) as { name: string });
    if (dump.jobs.length > 0) await jobs.queue.insert(dump.jobs.map((job) => clean(job) as { name: string }));
  } finally {
    await jobs.stop();
    await pool.end();
  }
}

const clean = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null));

async function restorePglite(pgliteDir: string, dir: string, force: boolean): Promise<void> {
  const tarball = await readFile(path.join(dir, "database", "pglite.tar"));
  // Held while we write, so a server started meanwhile is refused rather than reading half a database.
  const unlock = await lockDataDir(pgliteDir).catch((error: Error) => {
    throw new RestoreRefused(error.message);
  });
  try {
    if (existsSync(path.join(pgliteDir, "PG_VERSION"))) {
      if (!force)
        throw new RestoreRefused(
          `There is already a database at ${pgliteDir}: restoring would replace it. Run again with --force to replace it (it is kept aside).`,
        );
      const aside = `${pgliteDir}.before-restore-${Date.now()}`;
      await rename(pgliteDir, aside);
      await mkdir(pgliteDir);
      console.info(`the database that was at ${pgliteDir} is kept at ${aside}`);
    }
    const database = new PGlite(pgliteDir, { loadDataDir: new Blob([new Uint8Array(tarball)]) });
    await database.query("SELECT 1");
    await database.close();
  } finally {
    await unlock();
  }
}

async function restoreFiles(storage: Storage, dir: string): Promise<number> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  let count = 0;
  for (const entry of names) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const key = path.relative(dir, file).split(path.sep).join("/");
    await storage.put(key, await readFile(file));
    count++;
  }
  return count;
}

/** DATA_DIR's secret (the folder the embedded database lives in) becomes the backup's. */
async function restoreSecret(config: AppConfig, dir: string): Promise<string[]> {
  const secret = (await readFile(path.join(dir, "auth-secret"), "utf8").catch(() => "")).trim();
  if (!secret || secret === config.authSecret) return [];
  const dataDir = path.dirname(path.resolve(config.pgliteDir));
  const file = path.join(dataDir, "auth-secret");
  const isGenerated = existsSync(file) && (await readFile(file, "utf8")).trim() === config.authSecret;
  if (!isGenerated)
    return [
      "AUTH_SECRET is set and differs from the backup's: sessions, API tokens and signed links of the backup " +
        "stay valid only with the backup's secret (the auth-secret file in the archive).",
    ];
  await writeFile(file, secret, { mode: 0o600 });
  return [`The backup's signing secret is now ${file}.`];
}
