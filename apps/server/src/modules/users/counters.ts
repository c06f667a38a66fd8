/**
 * The user's counters (SPEC §3), counted by the database when the user reads their record, so they are
 * always true: projects they own (a demo does not count), the pages in them, the people those projects
 * are shared with (one per project and person), how many of those shares give edit access, and how many
 * different people can edit one of their projects; beside them, the bytes their projects' files hold per
 * product (plans/storage.ts). One prepared statement.
 *
 * `countersFor` keeps what it counted in process memory under the user's `counters_revision`, which every
 * write that changes a count moves on in its own transaction (triggers of migration 0013). A read serves
 * the kept counters only when the user row it holds — fresh, or from the session cache, which every
 * process empties of the user as that row changes (ADR 0007) — carries the same revision; so a signed-in
 * `GET /api/me` costs no query while nothing it counts changes (ADR 0013).
 */
import type { Product, UserCounters } from "@redline/shared";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { prepared } from "../../db/prepared.ts";
import { type UserRow, users } from "../../db/schema/index.ts";
import { usedBytesSql } from "../plans/storage.ts";

export interface CountedUser extends UserCounters {
  /** Bytes the files of the user's own projects hold, per product. */
  storageUsed: Record<Product, number>;
}

/** Counted fresh, with the revision they were counted at (read in the same statement). */
export async function countersOf(db: Database, userId: string): Promise<CountedUser & { revision: number }> {
  const owner = sql.placeholder("userId");
  const [row] = await prepared(db, "user_counters", () =>
    db
      .select({
        projectsCount: sql<number>`(select count(*)::int from projects p where p.owner_id = ${owner} and p.type <> 'demo')`,
        projectPagesCount: sql<number>`(select count(*)::int from pages g join projects p on p.id = g.project_id where p.owner_id = ${owner})`,
        projectShareCount: sql<number>`(select count(*)::int from project_members m join projects p on p.id = m.project_id where p.owner_id = ${owner})`,
        projectEditorsCount: sql<number>`(select count(*)::int from project_members m join projects p on p.id = m.project_id where p.owner_id = ${owner} and m.access = 'edit')`,
        projectsEditors: sql<number>`(select count(distinct coalesce(m.user_id, m.email))::int from project_members m join projects p on p.id = m.project_id where p.owner_id = ${owner} and m.access = 'edit')`,
        webStorage: usedBytesSql(owner, "web"),
        browseStorage: usedBytesSql(owner, "browse"),
        revision: users.countersRevision,
      })
      .from(users)
      .where(eq(users.id, owner))
      .prepare("user_counters"),
  ).execute({ userId });
  if (!row)
    return {
      projectsCount: 0,
      projectPagesCount: 0,
      projectShareCount: 0,
      projectEditorsCount: 0,
      projectsEditors: 0,
      storageUsed: { web: 0, browse: 0 },
      revision: -1,
    };
  const { webStorage, browseStorage, ...counters } = row;
  return { ...counters, storageUsed: { web: Number(webStorage), browse: Number(browseStorage) } };
}

const MAX_ENTRIES = 10_000;
const kept = new WeakMap<Database, Map<string, CountedUser & { revision: number }>>();

/**
 * The user's counters at the revision their row carries: kept ones when counted at that revision, else
 * counted now and kept (at the revision the count saw, which a newer row then misses). Least recently
 * used entries go first past MAX_ENTRIES.
 */
export async function countersFor(
  db: Database,
  user: Pick<UserRow, "id" | "countersRevision">,
): Promise<CountedUser> {
  let byUser = kept.get(db);
  if (!byUser) {
    byUser = new Map();
    kept.set(db, byUser);
  }
  const held = byUser.get(user.id);
  if (held && held.revision === user.countersRevision) {
    byUser.delete(user.id);
    byUser.set(user.id, held);
    return held;
  }
  const counted = await countersOf(db, user.id);
  if (counted.revision < 0) return counted;
  byUser.delete(user.id);
  if (byUser.size >= MAX_ENTRIES) {
    const oldest = byUser.keys().next();
    if (!oldest.done) byUser.delete(oldest.value);
  }
  byUser.set(user.id, counted);
  return counted;
}
