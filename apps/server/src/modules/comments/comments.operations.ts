/**
 * A comment's writes for signed-in people (lib/operations.ts): pin one, reply, resolve/reopen/move, edit
 * one's own entry, delete an entry (the first deletes the comment), copy the previous version's unresolved
 * comments. Each authorizes through comments.policy.ts and records its events in its transaction.
 */
import {
  COMMENT_MESSAGES,
  createCommentSchema,
  editEntrySchema,
  replySchema,
  updateCommentSchema,
  type VideoInput,
} from "@redline/shared";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { commentEntries, comments, type ProjectRow } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { operation, withParams } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import type { Actor } from "../auth/session.ts";
import { authorizeFiles, authorizeNewEntry, entryToChange } from "../discussion/discussion.ts";
import { editEntryText, projectAttachments } from "../discussion/discussion.write.ts";
import { loadVersion } from "../project-access/projects.load.ts";
import { acceptVideo, enqueueVideo, pendingVideoColumns } from "../videos/processing.ts";
import { commentRef, recordCommentEvent } from "./comments.events.ts";
import { loadComment, loadEntry } from "./comments.load.ts";
import { authorizeComment, COMMENT_DISCUSSION, withCommentAbilities } from "./comments.policy.ts";
import {
  addReply,
  copyUnresolved,
  createComment,
  deleteEntry,
  type EntryExtras,
  presentOne,
  previousVersion,
} from "./comments.service.ts";
import { movedCommentTarget, newVersionTarget } from "./comments.targets.ts";

export const versionParams = z.object({ versionId: z.string().min(1).max(64) });
const commentParams = z.object({ commentId: z.string().min(1).max(64) });
const entryParams = commentParams.extend({ entryId: z.string().min(1).max(64) });

/**
 * The video a new entry carries, measured on the server (videos/processing.ts), as the entry's columns and its job;
 * `uploader` is who uploaded it (a member's id, or a link guest's `guestUploader`).
 */
export async function videoExtras(
  ctx: AppContext,
  project: ProjectRow,
  uploader: string,
  input: { video?: VideoInput },
): Promise<EntryExtras> {
  if (!input.video) return {};
  const video = await acceptVideo(ctx, project, uploader, input.video);
  return {
    columns: pendingVideoColumns(video),
    inTransaction: (tx, entryId) => enqueueVideo(ctx.queue, tx, "comment", entryId, video),
  };
}

export const pinComment = operation(
  "comments.create",
  withParams(versionParams, createCommentSchema),
  async (ctx, actor: Actor, { versionId, ...input }) => {
    const { db } = ctx.database;
    const { version, access, project } = await loadVersion(db, actor, versionId);
    const writer = policyActorOf(actor, access);
    authorizeComment(writer, "comments.create");
    authorizeFiles(COMMENT_DISCUSSION, writer, input);
    const target = newVersionTarget(input, version.kind);
    const attachments = await projectAttachments(ctx.storage, version.projectId, input.attachments);
    const created = await createComment(
      db,
      version,
      { userId: actor.user.id },
      { ...input, target, attachments },
      ctx.config.plansEnabled,
      await videoExtras(ctx, project, actor.user.id, input),
    );
    return { data: withCommentAbilities(writer, created) };
  },
);

export const replyToComment = operation(
  "comments.reply",
  withParams(commentParams, replySchema),
  async (ctx, actor: Actor, { commentId, ...input }) => {
    const { db } = ctx.database;
    const { comment, access, project } = await loadComment(db, actor, commentId);
    const writer = policyActorOf(actor, access);
    authorizeNewEntry(COMMENT_DISCUSSION, writer, input);
    const attachments = await projectAttachments(ctx.storage, comment.projectId, input.attachments);
    const replied = await addReply(
      db,
      comment,
      { userId: actor.user.id },
      { ...input, attachments },
      ctx.config.plansEnabled,
      await videoExtras(ctx, project, actor.user.id, input),
    );
    return { data: withCommentAbilities(writer, replied) };
  },
);

/** Resolve, reopen, move the pin or save its anchoring. */
export const updateComment = operation(
  "comments.update",
  withParams(commentParams, updateCommentSchema),
  async (ctx, actor: Actor, { commentId, ...input }) => {
    const { db } = ctx.database;
    const { comment, access } = await loadComment(db, actor, commentId);
    const writer = policyActorOf(actor, access);
    const moves = Boolean(input.target || input.dotPosition || input.anchor || input.anchorStatus);
    if (comment.slideId && (input.anchor || input.anchorStatus))
      throw new BadRequestError("A slide's comment is not anchored to a page's element.", "not-on-a-page");
    if (input.isResolved !== undefined || !moves) authorizeComment(writer, "comments.resolve");
    if (moves) authorizeComment(writer, "comments.move");
    const target = await movedCommentTarget(db, comment, input);
    await db.transaction(async (tx) => {
      await tx
        .update(comments)
        .set({
          ...(input.isResolved !== undefined && {
            isResolved: input.isResolved,
            resolvedBy: input.isResolved ? actor.user.id : null,
          }),
          ...(target && { target }),
          ...(input.anchorStatus && { anchorStatus: input.anchorStatus }),
          modifiedAt: new Date(),
        })
        .where(eq(comments.id, comment.id));
      await recordCommentEvent(tx, {
        type: "comment.updated",
        actor: { userId: actor.user.id },
        ref: commentRef(comment),
        resolves: Boolean(input.isResolved && !comment.isResolved),
        comment: (await presentOne(tx, comment.id)) ?? undefined,
      });
    });
    return { data: withCommentAbilities(writer, (await presentOne(db, comment.id))!) };
  },
);

/** An edit replaces the text of one entry, and only its author may make it (SPEC §4). */
export const editCommentEntry = operation(
  "entries.edit",
  withParams(entryParams, editEntrySchema),
  async (ctx, actor: Actor, { commentId, entryId, comment: text }) => {
    const { db } = ctx.database;
    const { comment, access } = await loadComment(db, actor, commentId);
    const writer = policyActorOf(actor, access);
    const entry = await entryToChange(COMMENT_DISCUSSION, writer, "edit", () =>
      loadEntry(db, comment.id, entryId),
    );
    await db.transaction(async (tx) => {
      await editEntryText(tx, commentEntries, entry.id, text);
      await recordCommentEvent(tx, {
        type: "comment.edited",
        ref: commentRef(comment),
        comment: (await presentOne(tx, comment.id)) ?? undefined,
      });
    });
    return { data: withCommentAbilities(writer, (await presentOne(db, comment.id))!) };
  },
);

export const deleteCommentEntry = operation(
  "entries.delete",
  entryParams,
  async (ctx, actor: Actor, { commentId, entryId }) => {
    const { db } = ctx.database;
    const { comment, access } = await loadComment(db, actor, commentId);
    const entry = await entryToChange(COMMENT_DISCUSSION, policyActorOf(actor, access), "delete", () =>
      loadEntry(db, comment.id, entryId),
    );
    return { data: { commentDeleted: await deleteEntry(db, comment, entry) } };
  },
);

export const copyUnresolvedComments = operation(
  "comments.copy",
  versionParams,
  async (ctx, actor: Actor, { versionId }) => {
    const { db } = ctx.database;
    const { version, access } = await loadVersion(db, actor, versionId);
    authorizeComment(policyActorOf(actor, access), "comments.copy");
    const previous = await previousVersion(db, version);
    if (!previous) throw new BadRequestError(COMMENT_MESSAGES.pullFailed, "no-previous-version");
    const copied = await copyUnresolved(db, previous, version);
    return { data: { copied }, ...(copied === 0 && { message: COMMENT_MESSAGES.noUnresolved }) };
  },
);
