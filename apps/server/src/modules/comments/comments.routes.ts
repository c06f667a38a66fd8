/**
 * Comments over HTTP: a version's comments are read here (kept per version and reader), and an
 * illustration project's slide comments (comments.slides.ts: the same comments, on slides); pinning,
 * replying, resolving/moving, editing and deleting entries and copying unresolved comments are operations
 * (comments.operations.ts), which authorize.
 */
import {
  commentSchema,
  commentsCopiedSchema,
  createCommentSchema,
  createSlideCommentSchema,
  dataAnswer,
  editEntrySchema,
  entryDeletedSchema,
  replySchema,
  slideCommentSchema,
  slideCommentsAnswerSchema,
  updateCommentSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { memberActor } from "../../lib/policy.ts";
import { sendRevalidatable } from "../../lib/revalidate.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { loadVersionAccessCached, startReadCaches } from "../project-access/read-cache.ts";
import { deckParams } from "../slides/slides.operations.ts";
import { commentsListQuery, readComments, readFirstComments, startCommentsCache } from "./comments.cache.ts";
import {
  copyUnresolvedComments,
  deleteCommentEntry,
  editCommentEntry,
  pinComment,
  replyToComment,
  updateComment,
  versionParams,
} from "./comments.operations.ts";
import { authorizeComment } from "./comments.policy.ts";
import { pinSlideComment, readSlideComments } from "./comments.slides.ts";

export async function commentsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth } = ctx;
  const { db } = ctx.database;
  const commentsCache = startCommentsCache(db);
  startReadCaches(app, db);
  app.addHook("onClose", async () => commentsCache.stop());

  app.get(
    "/api/versions/:versionId/comments",
    route({
      summary: "Comments of a version with their threads (`first`: only the first ones, and their total)",
      action: "comments.read",
      query: commentsListQuery,
      // `total` beside a first page.
      response: dataAnswer(z.array(commentSchema)).extend({ total: z.number().int().min(0).optional() }),
    }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const versionId = versionParams.parse(request.params).versionId;
      const { first } = commentsListQuery.parse(request.query);
      const { version, access } = await loadVersionAccessCached(db, actor, versionId);
      const reader = memberActor(actor.user.id, access);
      authorizeComment(reader, "comments.read");
      if (first !== undefined) return readFirstComments(db, version, reader, first);
      // Already JSON: kept per version and reader (comments.cache.ts), sent as it is — or 304 to a tab that
      // holds these very bytes.
      return sendRevalidatable(request, reply, await readComments(db, version, reader));
    },
  );

  app.post(
    "/api/versions/:versionId/comments",
    route({
      summary: "Pin a new comment",
      body: createCommentSchema,
      action: "comments.create",
      response: dataAnswer(commentSchema),
    }),
    async (request, reply) => {
      const pinned = await pinComment(ctx, await requireActor(auth, db, request), requestInput(request));
      reply.status(201);
      return pinned;
    },
  );

  app.get(
    "/api/projects/:projectId/slide-comments",
    route({
      summary: "An illustration project's slide comments, where their pins are, and each slide's count",
      action: "comments.read",
      response: dataAnswer(slideCommentsAnswerSchema),
    }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      return { data: await readSlideComments(db, actor, deckParams.parse(request.params).projectId) };
    },
  );

  app.post(
    "/api/projects/:projectId/slides/:slideId/comments",
    route({
      summary: "Pin a new comment to a point of a slide or to an object of it",
      body: createSlideCommentSchema,
      action: "comments.create",
      response: dataAnswer(slideCommentSchema),
    }),
    async (request, reply) => {
      const pinned = await pinSlideComment(ctx, await requireActor(auth, db, request), requestInput(request));
      reply.status(201);
      return pinned;
    },
  );

  app.post(
    "/api/comments/:commentId/replies",
    route({
      summary: "Reply to a comment",
      body: replySchema,
      action: "comments.reply",
      response: dataAnswer(commentSchema),
    }),
    async (request, reply) => {
      const replied = await replyToComment(ctx, await requireActor(auth, db, request), requestInput(request));
      reply.status(201);
      return replied;
    },
  );

  app.patch(
    "/api/comments/:commentId",
    route({
      summary: "Resolve, reopen, move the pin or save its anchoring",
      body: updateCommentSchema,
      action: "comments.resolve",
      response: dataAnswer(commentSchema),
    }),
    async (request) => updateComment(ctx, await requireActor(auth, db, request), requestInput(request)),
  );

  app.patch(
    "/api/comments/:commentId/entries/:entryId",
    route({
      summary: "Edit one's own reply",
      body: editEntrySchema,
      action: "entries.edit",
      response: dataAnswer(commentSchema),
    }),
    async (request) => editCommentEntry(ctx, await requireActor(auth, db, request), requestInput(request)),
  );

  app.delete(
    "/api/comments/:commentId/entries/:entryId",
    route({
      summary: "Delete a reply (the first one deletes the comment)",
      action: "entries.delete",
      response: dataAnswer(entryDeletedSchema),
    }),
    async (request) => deleteCommentEntry(ctx, await requireActor(auth, db, request), requestInput(request)),
  );

  app.post(
    "/api/versions/:versionId/comments/copy-unresolved",
    route({
      summary: "Copy the previous version's unresolved comments",
      action: "comments.copy",
      response: dataAnswer(commentsCopiedSchema),
    }),
    async (request) =>
      copyUnresolvedComments(ctx, await requireActor(auth, db, request), requestInput(request)),
  );
}
