/**
 * Account Settings → API tokens: the signed-in person's own tokens. Only a browser session manages them:
 * a token can neither mint nor revoke tokens (`accepts: ["session"]`).
 */
import {
  API_TOKEN_MESSAGES,
  type ApiToken,
  type ApiTokenCreated,
  apiTokenCreatedSchema,
  apiTokenCreateSchema,
  apiTokenSchema,
  dataAnswer,
  messageAnswer,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { route } from "../../lib/routes.ts";
import { createApiToken, listApiTokens, revokeApiToken } from "./api-tokens.ts";
import { requireActor } from "./session.ts";

const tokenParamsSchema = z.object({ tokenId: z.string().min(1).max(100) });

export async function apiTokenRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.get(
    "/api/me/tokens",
    route({
      summary: "Your API tokens",
      action: "self",
      accepts: ["session"],
      response: dataAnswer(z.array(apiTokenSchema)),
    }),
    async (request): Promise<{ data: ApiToken[] }> => {
      const { user } = await requireActor(request);
      return { data: await listApiTokens(db, user.id) };
    },
  );

  app.post(
    "/api/me/tokens",
    route({
      summary: "Create an API token (its secret is answered this once)",
      body: apiTokenCreateSchema,
      action: "self",
      accepts: ["session"],
      response: dataAnswer(apiTokenCreatedSchema),
    }),
    async (request, reply): Promise<{ data: ApiTokenCreated; message: string }> => {
      const { user } = await requireActor(request);
      const input = apiTokenCreateSchema.parse(request.body);
      reply.status(201);
      return { data: await createApiToken(db, user, input), message: API_TOKEN_MESSAGES.created };
    },
  );

  app.delete(
    "/api/me/tokens/:tokenId",
    route({
      summary: "Revoke an API token",
      action: "self",
      accepts: ["session"],
      response: messageAnswer,
    }),
    async (request) => {
      const { user } = await requireActor(request);
      const { tokenId } = tokenParamsSchema.parse(request.params);
      await revokeApiToken(db, user.id, tokenId);
      return { message: API_TOKEN_MESSAGES.revoked };
    },
  );
}
