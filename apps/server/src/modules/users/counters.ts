/**
 * The user's counters (SPEC §3), counted by the database when the user reads their record, so they are
 * always true: projects they own (a demo does not count), the pages in them, the people those projects
 * are shared with (one per project and person), how many of those shares give edit access, and how many
 * different people can edit one of their projects; beside them, the bytes their projects' files hold per
 * product (plans/storage.ts). One prepared statement.
 */
import type { Product, UserCounters } from "@redline/shared";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { prepared } from "../../db/prepared.ts";
import { users } from "../../db/schema/index.ts";
import { usedBytesSql } from "../plans/storage.ts";

export interface CountedUser extends UserCounters {
  /** Bytes the files of the user's own projects hold, per product. */
  storageUsed: Record<Product, number>;
}

export async function countersOf(db: Database, userId: string): Promise<CountedUser> {
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
    };
  const { webStorage, browseStorage, ...counters } = row;
  return { ...counters, storageUsed: { web: Number(webStorage), browse: Number(browseStorage) } };
}
