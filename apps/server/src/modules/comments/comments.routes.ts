/**
 * Comments over HTTP: a version's comments are read here (kept per version and reader); pinning,
 * replying, resolving/moving, editing and deleting entries and copying unresolved comments are operations
 * (comments.operations.ts), which authorize.
 */
import { createCommentSchema, editEntrySchema, replySchema, updateCommentSchema } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { memberActor } from "../../lib/policy.ts";
import { sendRevalidatable } from "../../lib/revalidate.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { loadVersionAccessCached, startReadCaches } from "../project-access/read-cache.ts";
import { readComments, startCommentsCache } from "./comments.cache.ts";
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

export async function commentsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth } = ctx;
  const { db } = ctx.database;
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
      const reader = memberActor(actor.user.id, access);
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
      const pinned = await pinComment(ctx, await requireActor(auth, db, request), requestInput(request));
      reply.status(201);
      return pinned;
    },
  );

  app.post(
    "/api/comments/:commentId/replies",
    route({ summary: "Reply to a comment", body: replySchema, action: "comments.reply" }),
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
    }),
    async (request) => updateComment(ctx, await requireActor(auth, db, request), requestInput(request)),
  );

  app.patch(
    "/api/comments/:commentId/entries/:entryId",
    route({ summary: "Edit one's own reply", body: editEntrySchema, action: "entries.edit" }),
    async (request) => editCommentEntry(ctx, await requireActor(auth, db, request), requestInput(request)),
  );

  app.delete(
    "/api/comments/:commentId/entries/:entryId",
    route({ summary: "Delete a reply (the first one deletes the comment)", action: "entries.delete" }),
    async (request) => deleteCommentEntry(ctx, await requireActor(auth, db, request), requestInput(request)),
  );

  app.post(
    "/api/versions/:versionId/comments/copy-unresolved",
    route({ summary: "Copy the previous version's unresolved comments", action: "comments.copy" }),
    async (request) =>
      copyUnresolvedComments(ctx, await requireActor(auth, db, request), requestInput(request)),
  );
}
