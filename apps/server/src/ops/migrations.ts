/**
 * Where a database stands in our migrations, and how to bring an empty one to a given migration (not
 * further): a backup records its level, a restore rebuilds the schema at exactly that level before loading
 * the rows (the app migrates on from there when it starts), and the upgrade test starts from the first.
 *
 * Drizzle's migrator keeps `drizzle.__drizzle_migrations` (hash, created_at = the journal entry's `when`)
 * and applies every migration newer than the last row; a level is the index of that entry in the journal.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrationsFolder } from "../db/index.ts";

export interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

export interface MigrationLevel {
  /** How many migrations are applied (0: none). */
  count: number;
  /** The last applied migration's tag, e.g. "0022_stored_files". */
  tag: string | null;
}

export function journal(): JournalEntry[] {
  const file = path.join(migrationsFolder, "meta", "_journal.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { entries: JournalEntry[] }).entries;
}

/** The level this code migrates to. */
export function latestLevel(): MigrationLevel {
  const entries = journal();
  return { count: entries.length, tag: entries.at(-1)?.tag ?? null };
}

type Query = (text: string) => Promise<{ rows: unknown[] }>;

/** The level of a database, from the migrator's own table (none: level 0). */
export async function levelOf(query: Query): Promise<MigrationLevel> {
  const exists = await query("SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present");
  if (!(exists.rows[0] as { present: boolean }).present) return { count: 0, tag: null };
  const last = await query("SELECT max(created_at)::text AS at FROM drizzle.__drizzle_migrations");
  const at = (last.rows[0] as { at: string | null }).at;
  if (at === null) return { count: 0, tag: null };
  const entries = journal();
  const index = entries.findIndex((entry) => String(entry.when) === at);
  // A migration this code does not know: newer than every one it knows.
  if (index < 0)
    return Number(at) > (entries.at(-1)?.when ?? 0)
      ? { count: Number.POSITIVE_INFINITY, tag: `unknown migration of ${new Date(Number(at)).toISOString()}` }
      : { count: -1, tag: `unknown migration of ${new Date(Number(at)).toISOString()}` };
  return { count: index + 1, tag: entries[index]!.tag };
}

/**
 * A migrations folder holding only the first `count` migrations, for drizzle's migrator; `dispose`
 * removes it.
 */
export function migrationsUpTo(count: number): { folder: string; dispose(): void } {
  const folder = mkdtempSync(path.join(os.tmpdir(), "redline-migrations-"));
  cpSync(migrationsFolder, folder, { recursive: true });
  const file = path.join(folder, "meta", "_journal.json");
  const content = JSON.parse(readFileSync(file, "utf8")) as { entries: JournalEntry[] };
  content.entries = content.entries.slice(0, count);
  writeFileSync(file, JSON.stringify(content));
  return { folder, dispose: () => rmSync(folder, { recursive: true, force: true }) };
}
