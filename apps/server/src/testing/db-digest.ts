/**
 * A fingerprint of everything a request could change: every row of every application table, and every
 * stored file. Equal digests before and after a refused request prove the refusal changed nothing.
 */
import { readdir } from "node:fs/promises";
import { sql } from "drizzle-orm";
import type { AppContext } from "../context.ts";

/**
 * Tables a refused request may legitimately touch, or that only background work writes: the auth
 * library's own bookkeeping, and the dev mailbox (filled when an earlier request's mail is delivered).
 */
const VOLATILE = new Set(["sessions", "rate_limits", "__drizzle_migrations", "mailbox_messages"]);
/**
 * Columns written by background jobs at any moment, not by requests: the mailer's claim on a notification,
 * and a stored mail's delivery (a refused request stores no mail; an earlier one's may be delivering).
 */
const BACKGROUND_COLUMNS: Record<string, string[]> = {
  notifications: ["email_sent"],
  outgoing_mails: ["attempts", "lease_until", "sent_at", "last_error"],
};

export async function digest(ctx: AppContext): Promise<Record<string, string>> {
  const { db } = ctx.database;
  const tables = (await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )) as unknown as { rows: { table_name: string }[] };
  const result: Record<string, string> = {};
  for (const { table_name: table } of tables.rows) {
    if (VOLATILE.has(table)) continue;
    const skipped = BACKGROUND_COLUMNS[table] ?? [];
    const row = skipped.length
      ? `(to_jsonb(t) - ${skipped.map((c) => `'${c}'`).join(" - ")})::text`
      : "t::text";
    const rows = (await db.execute(
      sql.raw(`select md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as h from "${table}" t`),
    )) as unknown as { rows: { h: string }[] };
    result[table] = rows.rows[0]!.h;
  }
  const files = await readdir(ctx.config.filesDir, { recursive: true }).catch(() => [] as string[]);
  result["(files)"] = [...files].sort().join("\n");
  return result;
}
