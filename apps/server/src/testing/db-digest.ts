/**
 * A fingerprint of everything a request could change: every row of every application table, and every
 * stored file. Equal digests before and after a refused request prove the refusal changed nothing.
 */
import { readdir } from "node:fs/promises";
import { sql } from "drizzle-orm";
import type { AppContext } from "../context.ts";

/**
 * Tables a refused request may legitimately touch, or that only background work writes: the auth
 * library's own bookkeeping; the dev mailbox (filled when an earlier request's mail is delivered); and the
 * mail outbox, which the notification mailer fills out of the request (a refused request stores no mail,
 * but an earlier request's notification may be mailed at any moment).
 */
const VOLATILE = new Set([
  "sessions",
  "rate_limits",
  "__drizzle_migrations",
  "mailbox_messages",
  "outgoing_mails",
]);
/** Columns written by background jobs at any moment, not by requests: the mailer's claim on a notification. */
const BACKGROUND_COLUMNS: Record<string, string[]> = { notifications: ["email_sent"] };

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
