/**
 * A fingerprint of everything a request could change: every row of every application table, and every
 * stored file. Equal digests before and after a refused request prove the refusal changed nothing.
 */
import { sql } from "drizzle-orm";
import type { AppContext } from "../context.ts";
import type { Storage } from "../lib/storage/storage.ts";

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
  // Where the ledger's consumers have read to: their bookkeeping, moved by background passes.
  "event_cursors",
  // The ledger itself: a write records its events beside its own rows (which the digest sees), and
  // background work records there at any moment — a capture finishing, a thumbnail drawn, the notifier
  // announcing what an earlier write set going.
  "domain_events",
]);
/**
 * Columns written by background jobs at any moment, not by requests: the mailer's claim on a notification;
 * what the custom-domain re-check (every 10 minutes of an app's life) records of a team's domain; a webhook
 * delivery's attempts (modules/integrations/webhook-delivery.ts). And an API
 * token's last use, bookkeeping written (once a minute) by any request that carries it, refused or not.
 */
const BACKGROUND_COLUMNS: Record<string, string[]> = {
  api_tokens: ["last_used_at"],
  notifications: ["email_sent"],
  teams: ["domain_status", "domain_checked_at"],
  // A webhook delivery's attempts, made by the job queue after the write that made or replayed it.
  webhook_deliveries: ["status", "attempts", "response_status", "last_error", "lease_until", "delivered_at"],
};

/** The application tables, read once per database (migrations ran before any test asks). */
const tablesOf = new WeakMap<object, Promise<string[]>>();

async function applicationTables(ctx: AppContext): Promise<string[]> {
  const { db } = ctx.database;
  let tables = tablesOf.get(db);
  if (!tables) {
    tables = (
      db.execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
      ) as unknown as Promise<{ rows: { table_name: string }[] }>
    ).then(({ rows }) => rows.map((row) => row.table_name).filter((table) => !VOLATILE.has(table)));
    tablesOf.set(db, tables);
  }
  return tables;
}

/**
 * One query for every table: its row count and the newest row version's transaction id (`xmin`). A write
 * that commits inserts a row (the count or the newest xmin moves), deletes one (the count falls) or updates
 * one (its new version carries a newer xmin); a rolled-back write leaves no visible row version. No row is
 * read as text, so it stays cheap as a test database grows. Tables that background work updates in some
 * columns are hashed row by row without those columns instead.
 */
export async function digest(ctx: AppContext): Promise<Record<string, string>> {
  const { db } = ctx.database;
  // What earlier writes set going (their notifications) is done first: the digest is of a settled state.
  // A loaded machine gets the time a test has (a reader's pass over an earlier cell's batch may be slow).
  await ctx.ledger.settled(25_000);
  const tables = await applicationTables(ctx);
  const parts = tables.map((table) => {
    const skipped = BACKGROUND_COLUMNS[table];
    const figure = skipped
      ? `coalesce(sum(hashtextextended((to_jsonb(t) - ${skipped.map((c) => `'${c}'`).join(" - ")})::text, 0)), 0)::text`
      : "coalesce(max(t.xmin::text::bigint), 0)::text";
    return `select '${table}' as name, count(*)::text || ':' || ${figure} as h from "${table}" t`;
  });
  const { rows } = (await db.execute(sql.raw(parts.join(" union all ")))) as unknown as {
    rows: { name: string; h: string }[];
  };
  const result: Record<string, string> = Object.fromEntries(rows.map((row) => [row.name, row.h]));
  result["(files)"] = String(storageWrites(ctx.storage));
  return result;
}

const writesOf = new WeakMap<Storage, { count: number }>();

/**
 * How many times the app has asked its file storage to write or delete a file since the first digest
 * (every file the app stores goes through `ctx.storage`, on disk or S3). Counting the calls, not listing
 * the folder, costs nothing as the files pile up through a long test file — a listing cost 60 ms per
 * digest after 2,500 files — and it also sees a file written again under its old name.
 */
function storageWrites(storage: Storage): number {
  let writes = writesOf.get(storage);
  if (!writes) {
    const counter = { count: 0 };
    for (const method of ["put", "putContentAddressed", "delete"] as const) {
      const original = storage[method].bind(storage) as (...args: unknown[]) => Promise<void>;
      (storage as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        counter.count += 1;
        return original(...args);
      };
    }
    writesOf.set(storage, counter);
    writes = counter;
  }
  return writes.count;
}
