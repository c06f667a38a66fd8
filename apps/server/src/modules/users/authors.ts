/**
 * People as the authors of what is said in a project — comments, suggested edits, notifications: users
 * by id while they are among the project's people, else 'Deleted User' (SPEC §6). Shared by the modules
 * that show authors, so none of them imports another for it.
 */
import { type CommentAuthor, DELETED_USER_NAME } from "@redline/shared";
import { and, inArray, or } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { projectMembers, projects, users } from "../../db/schema/index.ts";

/**
 * Authors of the given entries: users by id, guests by their identity. A user whose account is gone, or
 * who is no longer among the project's people, shows as 'Deleted User' (SPEC §6). One query: it is also
 * read inside write transactions, whose single connection must not be sent queries side by side.
 */
export async function loadAuthors(
  db: Database,
  userIds: readonly (string | null)[],
  projectIds: string[],
): Promise<Map<string, CommentAuthor>> {
  const ids = [...new Set(userIds.filter((id): id is string => Boolean(id)))];
  if (ids.length === 0 || projectIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, displayName: users.displayName, photoURL: users.photoURL })
    .from(users)
    .where(
      and(
        inArray(users.id, ids),
        or(
          inArray(
            users.id,
            db.select({ id: projects.ownerId }).from(projects).where(inArray(projects.id, projectIds)),
          ),
          inArray(
            users.id,
            db
              .select({ id: projectMembers.userId })
              .from(projectMembers)
              .where(inArray(projectMembers.projectId, projectIds)),
          ),
        ),
      ),
    );
  return authorsFrom(rows);
}

/** Authors by id, from users already known to be among the project's people. */
export function authorsFrom(
  rows: { id: string; displayName: string; photoURL: string | null }[],
): Map<string, CommentAuthor> {
  const authors = new Map<string, CommentAuthor>();
  for (const row of rows)
    authors.set(row.id, {
      uid: row.id,
      displayName: row.displayName,
      photoURL: row.photoURL,
      isGuest: false,
    });
  return authors;
}

/** An author whose account is gone or who left the project (SPEC §6). */
export const DELETED_AUTHOR: CommentAuthor = {
  uid: null,
  displayName: DELETED_USER_NAME,
  photoURL: null,
  isGuest: false,
};
