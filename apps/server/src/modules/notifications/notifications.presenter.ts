import {
  ANONYMOUS_GUEST,
  type CommentAuthor,
  type Notification,
  type NotificationActor,
} from "@redline/shared";
import type { Database } from "../../db/index.ts";
import type { NotificationRow } from "../../db/schema/index.ts";
import { DELETED_AUTHOR, loadAuthors } from "../comments/comments.presenter.ts";

/**
 * Notifications as the API shows them. The actor's name and photo are read now, as for comment authors:
 * a renamed actor shows the new name, one whose account is gone or who left the project 'Deleted User'.
 */
export async function presentNotifications(
  db: Database,
  rows: NotificationRow[],
  /** The actors, when the caller already knows them (the event that just happened). */
  known?: Map<string, CommentAuthor>,
): Promise<Notification[]> {
  const authors =
    known ??
    (await loadAuthors(
      db,
      rows.map((row) => row.actorId),
      [...new Set(rows.map((row) => row.projectId))],
    ));
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
