import {
  type Access,
  COMMENT_MESSAGES,
  createCommentSchema,
  editEntrySchema,
  replySchema,
  updateCommentSchema,
} from "@redline/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { commentEntries, comments } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { memberActor, type PolicyActor } from "../../lib/policy.ts";
import { sendRevalidatable } from "../../lib/revalidate.ts";
import { route } from "../../lib/routes.ts";
import { type Actor, requireActor } from "../auth/session.ts";
import { notify } from "../notifications/notify.ts";
import { loadVersion } from "../project-access/projects.load.ts";
import { loadVersionAccessCached, startReadCaches } from "../project-access/read-cache.ts";
import { storedAttachments } from "./attachments.routes.ts";
import { readComments, startCommentsCache } from "./comments.cache.ts";
import { loadComment, loadEntry } from "./comments.load.ts";
import { authorizeComment, withCommentAbilities } from "./comments.policy.ts";
import {
  addReply,
  copyUnresolved,
  createComment,
  deleteEntry,
  presentOne,
  previousVersion,
  publishChanged,
} from "./comments.service.ts";

const versionParams = z.object({ versionId: z.string().min(1).max(64) });
const commentParams = z.object({ commentId: z.string().min(1).max(64) });
const entryParams = commentParams.extend({ entryId: z.string().min(1).max(64) });

const member = (actor: Actor, access: Access | null) => memberActor(actor.user.id, access);

/** A new comment or reply that carries files needs the right to attach them too. */
function authorizeAttachments(writer: PolicyActor, input: { attachments: unknown[] }) {
  if (input.attachments.length > 0) authorizeComment(writer, "comments.attach");
}

export async function commentsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth, storage } = ctx;
  const { db } = ctx.database;
  const { plansEnabled } = ctx.config;
  const commentsCache = startCommentsCache(db);
  startReadCaches(app, db);
  app.addHook("onClose", async () => commentsCache.stop());

  app.get(
    "/api/versions/:versionId/comments",
    route({ summary: "Comments of a version with their threads", action: "comments.read" }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const versionId = versionParams.parse(request.params).versionId;
      const { version, access } = await loadVersionAccessCached(db, actor, versionId);
      const reader = member(actor, access);
      authorizeComment(reader, "comments.read");
      // Already JSON: kept per version and reader (comments.cache.ts), sent as it is — or 304 to a tab that
      // holds these very bytes.
      return sendRevalidatable(request, reply, await readComments(db, version, reader));
    },
  );

  app.post(
    "/api/versions/:versionId/comments",
    route({ summary: "Pin a new comment", body: createCommentSchema, action: "comments.create" }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const { version, access } = await loadVersion(db, actor, versionParams.parse(request.params).versionId);
      const writer = member(actor, access);
      authorizeComment(writer, "comments.create");
      const input = createCommentSchema.parse(request.body);
      authorizeAttachments(writer, input);
      const attachments = await storedAttachments(storage, version.projectId, input.attachments);
      reply.status(201);
      return {
        data: withCommentAbilities(
          writer,
          await createComment(
            db,
            version,
            { userId: actor.user.id },
            { ...input, attachments },
            plansEnabled,
          ),
        ),
      };
    },
  );

  app.post(
    "/api/comments/:commentId/replies",
    route({ summary: "Reply to a comment", body: replySchema, action: "comments.reply" }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const { comment, access } = await loadComment(db, actor, commentParams.parse(request.params).commentId);
      const writer = member(actor, access);
      authorizeComment(writer, "comments.reply");
      const input = replySchema.parse(request.body);
      authorizeAttachments(writer, input);
      const attachments = await storedAttachments(storage, comment.projectId, input.attachments);
      reply.status(201);
      return {
        data: withCommentAbilities(
          writer,
          await addReply(db, comment, { userId: actor.user.id }, { ...input, attachments }, plansEnabled),
        ),
      };
    },
  );

  app.patch(
    "/api/comments/:commentId",
    route({
      summary: "Resolve, reopen, move the pin or save its anchoring",
      body: updateCommentSchema,
      action: "comments.resolve",
    }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { comment, access } = await loadComment(db, actor, commentParams.parse(request.params).commentId);
      const writer = member(actor, access);
      const input = updateCommentSchema.parse(request.body);
      const moves = Boolean(input.dotPosition || input.anchor || input.anchorStatus);
      if (input.isResolved !== undefined || !moves) authorizeComment(writer, "comments.resolve");
      if (moves) authorizeComment(writer, "comments.move");
      await db.transaction(async (tx) => {
        await tx
          .update(comments)
          .set({
            ...(input.isResolved !== undefined && {
              isResolved: input.isResolved,
              resolvedBy: input.isResolved ? actor.user.id : null,
            }),
            ...(input.dotPosition && { dotPosition: input.dotPosition }),
            ...(input.anchor && { anchor: input.anchor, querySelector: input.anchor.querySelector }),
            ...(input.anchorStatus && { anchorStatus: input.anchorStatus }),
            modifiedAt: new Date(),
          })
          .where(eq(comments.id, comment.id));
        await publishChanged(tx, comment);
        if (input.isResolved && !comment.isResolved)
          await notify(tx, { on: "comment.resolved", actor: { userId: actor.user.id }, comment });
      });
      return { data: withCommentAbilities(writer, (await presentOne(db, comment.id))!) };
    },
  );

  /** An edit replaces the text of one entry, and only its author may make it (SPEC §4). */
  app.patch(
    "/api/comments/:commentId/entries/:entryId",
    route({ summary: "Edit one's own reply", body: editEntrySchema, action: "entries.edit" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const params = entryParams.parse(request.params);
      const { comment, access } = await loadComment(db, actor, params.commentId);
      const writer = member(actor, access);
      authorizeComment(writer, "comments.read");
      const entry = await loadEntry(db, comment.id, params.entryId);
      authorizeComment(writer, "entries.edit", { authorId: entry.userId });
      const input = editEntrySchema.parse(request.body);
      await db.transaction(async (tx) => {
        await tx
          .update(commentEntries)
          .set({ body: input.comment, editedAt: new Date() })
          .where(eq(commentEntries.id, entry.id));
        await publishChanged(tx, comment);
      });
      return { data: withCommentAbilities(writer, (await presentOne(db, comment.id))!) };
    },
  );

  app.delete(
    "/api/comments/:commentId/entries/:entryId",
    route({ summary: "Delete a reply (the first one deletes the comment)", action: "entries.delete" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const params = entryParams.parse(request.params);
      const { comment, access } = await loadComment(db, actor, params.commentId);
      const writer = member(actor, access);
      authorizeComment(writer, "comments.read");
      const entry = await loadEntry(db, comment.id, params.entryId);
      authorizeComment(writer, "entries.delete", { authorId: entry.userId });
      const commentDeleted = await deleteEntry(db, comment, entry);
      return { data: { commentDeleted } };
    },
  );

  app.post(
    "/api/versions/:versionId/comments/copy-unresolved",
    route({ summary: "Copy the previous version's unresolved comments", action: "comments.copy" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { version, access } = await loadVersion(db, actor, versionParams.parse(request.params).versionId);
      authorizeComment(member(actor, access), "comments.copy");
      const previous = await previousVersion(db, version);
      if (!previous) throw new BadRequestError(COMMENT_MESSAGES.pullFailed, "no-previous-version");
      const copied = await copyUnresolved(db, previous, version);
      return { data: { copied }, ...(copied === 0 && { message: COMMENT_MESSAGES.noUnresolved }) };
    },
  );
}
