import {
  ANONYMOUS_GUEST,
  type CommentAuthor,
  type Notification,
  type NotificationActor,
} from "@redline/shared";
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { type NotificationRow, users } from "../../db/schema/index.ts";
import { authorsFrom, DELETED_AUTHOR, loadAuthors } from "../users/authors.ts";

/**
 * Notifications as the API shows them. The actor's name and photo are read now, as for comment authors:
 * a renamed actor shows the new name, one whose account is gone or who left the project 'Deleted User'.
 * A team's notification names its actor while their account lives (one who left the team is its news).
 */
export async function presentNotifications(
  db: Database,
  rows: NotificationRow[],
  /** The actors, when the caller already knows them (the event that just happened). */
  known?: Map<string, CommentAuthor>,
): Promise<Notification[]> {
  const projectRows = rows.filter((row) => row.projectId !== null);
  const authors =
    known ??
    new Map([
      ...(await loadAuthors(
        db,
        projectRows.map((row) => row.actorId),
        [...new Set(projectRows.map((row) => row.projectId!))],
      )),
      ...(await teamActors(
        db,
        rows.filter((row) => row.projectId === null).map((row) => row.actorId),
      )),
    ]);
  return rows.map((row) => {
    const author = row.actorId ? (authors.get(row.actorId) ?? DELETED_AUTHOR) : null;
    const actor: NotificationActor = author
      ? { uid: author.uid, displayName: author.displayName, photoURL: author.photoURL }
      : {
          uid: null,
          displayName: row.context.userName ?? ANONYMOUS_GUEST.name,
          photoURL: row.context.photoURL ?? null,
        };
    return {
      id: row.id,
      type: row.type,
      projectId: row.projectId,
      teamId: row.teamId,
      pageId: row.pageId,
      versionId: row.versionId,
      commentId: row.commentId,
      actor,
      context: row.context,
      length: row.length,
      createdAt: row.createdAt.toISOString(),
      isSeen: row.isSeen,
      isNotified: row.isNotified,
    };
  });
}

async function teamActors(db: Database, actorIds: (string | null)[]): Promise<Map<string, CommentAuthor>> {
  const ids = [...new Set(actorIds.filter((id): id is string => Boolean(id)))];
  if (ids.length === 0) return new Map();
  return authorsFrom(
    await db
      .select({ id: users.id, displayName: users.displayName, photoURL: users.photoURL })
      .from(users)
      .where(and(inArray(users.id, ids), eq(users.isDeleted, false))),
  );
}
