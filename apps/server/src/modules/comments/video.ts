/**
 * Video comments (issue #33, ADR 0039): a comment or reply may carry a recorded video, measured, queued and
 * processed by videos/processing.ts; this is how the job finds a comment's entry and records what became of
 * its video — on the entry, told to the project's rooms through `comment.edited`.
 */
import { and, eq } from "drizzle-orm";
import { commentEntries, comments } from "../../db/schema/index.ts";
import type { VideoHolder } from "../videos/processing.ts";
import { commentRef, recordCommentEvent } from "./comments.events.ts";
import { presentOne } from "./comments.service.ts";

export const commentVideos: VideoHolder = {
  async pending(db, entryId) {
    const [row] = await db
      .select({ entry: commentEntries, comment: comments })
      .from(commentEntries)
      .innerJoin(comments, eq(comments.id, commentEntries.commentId))
      .where(eq(commentEntries.id, entryId));
    return row && row.entry.videoStatus === "processing" && row.entry.videoUpload
      ? { projectId: row.comment.projectId, upload: row.entry.videoUpload }
      : null;
  },
  async finish(tx, entryId, outcome) {
    const [entry] = await tx
      .update(commentEntries)
      .set({ ...outcome, videoUpload: null })
      .where(and(eq(commentEntries.id, entryId), eq(commentEntries.videoStatus, "processing")))
      .returning({ commentId: commentEntries.commentId });
    const [comment] = entry ? await tx.select().from(comments).where(eq(comments.id, entry.commentId)) : [];
    if (!comment) return;
    await recordCommentEvent(tx, {
      type: "comment.edited",
      ref: commentRef(comment),
      comment: (await presentOne(tx, comment.id)) ?? undefined,
    });
  },
};
