/**
 * Comments over HTTP: a version's comments are read here (kept per version and reader), and an
 * illustration project's slide comments (comments.slides.ts: the same comments, on slides); pinning,
 * replying, resolving/moving, editing and deleting entries and copying unresolved comments are operations
 * (comments.operations.ts), which authorize. The same subjects through a project's public link
 * (`/api/share/…`) accept its visitors too (lib/principal.ts `THROUGH_THE_LINK`): read here, pinning and
 * replying as the link's guest are operations (comments.guest.operations.ts).
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
import { policyActorOf } from "../../lib/policy.ts";
import { THROUGH_THE_LINK, throughLink } from "../../lib/principal.ts";
import { sendRevalidatable } from "../../lib/revalidate.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { loadVersionAccessCached, startReadCaches } from "../project-access/read-cache.ts";
import { deckParams } from "../slides/slides.operations.ts";
import { commentsListQuery, readComments, readFirstComments, startCommentsCache } from "./comments.cache.ts";
import {
  guestPinComment,
  guestReply,
  guestVersionParams,
  guestVisibleVersion,
} from "./comments.guest.operations.ts";
import {
  copyUnresolvedComments,
  deleteCommentEntry,
  editCommentEntry,
  pinComment,
  replyToComment,
  updateComment,
  versionParams,
} from "./comments.operations.ts";
import { authorizeComment, withCommentAbilities } from "./comments.policy.ts";
import { listComments } from "./comments.service.ts";
import {
  guestPinSlideComment,
  pinSlideComment,
  readGuestSlideComments,
  readSlideComments,
} from "./comments.slides.ts";

export async function commentsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
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
      const actor = await requireActor(request);
      const versionId = versionParams.parse(request.params).versionId;
      const { first } = commentsListQuery.parse(request.query);
      const { version, access } = await loadVersionAccessCached(db, actor, versionId);
      const reader = policyActorOf(actor, access);
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
      const pinned = await pinComment(ctx, await requireActor(request), requestInput(request));
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
      const actor = await requireActor(request);
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
      const pinned = await pinSlideComment(ctx, await requireActor(request), requestInput(request));
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
      const replied = await replyToComment(ctx, await requireActor(request), requestInput(request));
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
    async (request) => updateComment(ctx, await requireActor(request), requestInput(request)),
  );

  app.patch(
    "/api/comments/:commentId/entries/:entryId",
    route({
      summary: "Edit one's own reply",
      body: editEntrySchema,
      action: "entries.edit",
      response: dataAnswer(commentSchema),
    }),
    async (request) => editCommentEntry(ctx, await requireActor(request), requestInput(request)),
  );

  app.delete(
    "/api/comments/:commentId/entries/:entryId",
    route({
      summary: "Delete a reply (the first one deletes the comment)",
      action: "entries.delete",
      response: dataAnswer(entryDeletedSchema),
    }),
    async (request) => deleteCommentEntry(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    "/api/versions/:versionId/comments/copy-unresolved",
    route({
      summary: "Copy the previous version's unresolved comments",
      action: "comments.copy",
      response: dataAnswer(commentsCopiedSchema),
    }),
    async (request) => copyUnresolvedComments(ctx, await requireActor(request), requestInput(request)),
  );

  // Through the project's public link: its guests, and anyone else holding the link, as its guest.
  app.get(
    "/api/share/:projectId/versions/:versionId/comments",
    route({
      summary: "Comments through the public link",
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(z.array(commentSchema)),
    }),
    async (request) => {
      const { projectId, versionId } = guestVersionParams.parse(request.params);
      const { version, guest } = await guestVisibleVersion(db, ctx.config.plansEnabled, projectId, versionId);
      authorizeComment(guest, "comments.read");
      return { data: (await listComments(db, version.id)).map((c) => withCommentAbilities(guest, c)) };
    },
  );

  app.post(
    "/api/share/:projectId/versions/:versionId/comments",
    route({
      summary: "Comment as a guest (when the link allows it)",
      body: createCommentSchema,
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(commentSchema),
    }),
    async (request, reply) => {
      const pinned = await guestPinComment(ctx, throughLink(request), requestInput(request));
      reply.status(201);
      return pinned;
    },
  );

  app.get(
    "/api/share/:projectId/slide-comments",
    route({
      summary: "An illustration project's slide comments through the public link",
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(slideCommentsAnswerSchema),
    }),
    async (request) => {
      const { projectId } = deckParams.parse(request.params);
      return { data: await readGuestSlideComments(db, ctx.config.plansEnabled, projectId) };
    },
  );

  app.post(
    "/api/share/:projectId/slides/:slideId/comments",
    route({
      summary: "Comment on a slide as a guest (when the link allows it)",
      body: createSlideCommentSchema,
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(slideCommentSchema),
    }),
    async (request, reply) => {
      const pinned = await guestPinSlideComment(ctx, throughLink(request), requestInput(request));
      reply.status(201);
      return pinned;
    },
  );

  app.post(
    "/api/share/:projectId/comments/:commentId/replies",
    route({
      summary: "Reply as a guest (when the link allows it)",
      body: replySchema,
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(commentSchema),
    }),
    async (request, reply) => {
      const replied = await guestReply(ctx, throughLink(request), requestInput(request));
      reply.status(201);
      return replied;
    },
  );
}
