/**
 * `/request-review` over HTTP (SPEC §2 public views): who a review link reaches, and the request itself
 * — an operation (review-requests.operations.ts) that tells the owner alone, limited per visitor's IP
 * and per project.
 */
import {
  dataAnswer,
  messageAnswer,
  type ReviewRequestTarget,
  reviewRequestSchema,
  reviewRequestTargetQuerySchema,
  reviewRequestTargetSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { requestReview, reviewTargetOf } from "./review-requests.operations.ts";

export async function reviewRequestsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.get(
    "/api/review-requests/target",
    route({
      summary: "Who a review link reaches: the project owner's name",
      query: reviewRequestTargetQuerySchema,
      action: "public",
      response: dataAnswer(reviewRequestTargetSchema),
    }),
    async (request) => {
      const { project } = reviewRequestTargetQuerySchema.parse(request.query);
      const target = await reviewTargetOf(db, project);
      const data: ReviewRequestTarget = { ownerName: target.ownerName || "the project's owner" };
      return { data };
    },
  );

  app.post(
    "/api/review-requests",
    route({
      summary: "Ask a project's owner for a review of a URL (the owner's review link)",
      body: reviewRequestSchema,
      action: "public",
      response: messageAnswer,
    }),
    async (request, reply) => {
      const sent = await requestReview(ctx, { ip: request.ip }, requestInput(request));
      reply.status(201);
      return sent;
    },
  );
}
