import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { commentEntries, comments } from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import type { Actor } from "../auth/session.ts";
import { loadProject } from "../project-access/projects.load.ts";

export async function loadComment(db: Database, actor: Actor | null, commentId: string) {
  const [comment] = await db.select().from(comments).where(eq(comments.id, commentId));
  if (!comment) throw new NotFoundError("Comment not found.", "comment-not-found");
  return { comment, ...(await loadProject(db, actor, comment.projectId)) };
}

export async function loadEntry(db: Database, commentId: string, entryId: string) {
  const [entry] = await db
    .select()
    .from(commentEntries)
    .where(and(eq(commentEntries.id, entryId), eq(commentEntries.commentId, commentId)));
  if (!entry) throw new NotFoundError("Comment not found.", "comment-not-found");
  return entry;
}
