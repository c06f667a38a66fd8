/**
 * Comments through the public link over HTTP, for visitors without an account (a link guest,
 * lib/principal.ts `linkGuestOf`): read here; pinning and replying are operations
 * (comments.guest.operations.ts). An illustration project's link shows its slides' comments the same way
 * (comments.slides.ts).
 */
import {
  commentSchema,
  createCommentSchema,
  createSlideCommentSchema,
  dataAnswer,
  replySchema,
  slideCommentSchema,
  slideCommentsAnswerSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { linkGuestOf } from "../../lib/principal.ts";
import { route } from "../../lib/routes.ts";
import { deckParams } from "../slides/slides.operations.ts";
import {
  guestPinComment,
  guestReply,
  guestVersionParams,
  guestVisibleVersion,
  linkGuestView,
} from "./comments.guest.operations.ts";
import { authorizeComment, withCommentAbilities } from "./comments.policy.ts";
import { listComments } from "./comments.service.ts";
import { guestPinSlideComment, readGuestSlideComments } from "./comments.slides.ts";

export { linkGuestView };

export async function commentsGuestRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.get(
    "/api/share/:projectId/versions/:versionId/comments",
    route({
      summary: "Comments through the public link",
      action: "public",
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
      response: dataAnswer(commentSchema),
    }),
    async (request, reply) => {
      const pinned = await guestPinComment(ctx, linkGuestOf(request), requestInput(request));
      reply.status(201);
      return pinned;
    },
  );

  app.get(
    "/api/share/:projectId/slide-comments",
    route({
      summary: "An illustration project's slide comments through the public link",
      action: "public",
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
      response: dataAnswer(slideCommentSchema),
    }),
    async (request, reply) => {
      const pinned = await guestPinSlideComment(ctx, linkGuestOf(request), requestInput(request));
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
      response: dataAnswer(commentSchema),
    }),
    async (request, reply) => {
      const replied = await guestReply(ctx, linkGuestOf(request), requestInput(request));
      reply.status(201);
      return replied;
    },
  );
}
