/**
 * The browser extension's routes (ADR 0037). The signed-in person approves the extension from the app
 * (`/api/extension/grants`, their session); everything else is called by the extension from its own
 * origin (`accepts: ["extension"]`): taking its credential, its projects, adding the tab's page, the open
 * threads on an address, signing out. Any other origin is refused, whatever it sends.
 */
import {
  dataAnswer,
  EXTENSION_MAX_PAGE_BYTES,
  EXTENSION_MAX_SCREENSHOT_BYTES,
  EXTENSION_MESSAGES,
  type ExtensionProject,
  type ExtensionThread,
  extensionAddedSchema,
  extensionAddPageSchema,
  extensionGrantSchema,
  extensionProjectSchema,
  extensionSessionAnswerSchema,
  extensionSessionSchema,
  extensionThreadSchema,
  extensionThreadsQuerySchema,
  messageAnswer,
} from "@redline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { ForbiddenError, PayloadTooLargeError, UnauthorizedError } from "../../lib/errors.ts";
import { requestInput } from "../../lib/operations.ts";
import { type ExtensionPrincipal, isExtensionOrigin } from "../../lib/principal.ts";
import { route } from "../../lib/routes.ts";
import { type Actor, requireActor, sessionIdOf } from "../auth/session.ts";
import { extensionProjects, openThreadsAt } from "./extension.load.ts";
import {
  addExtensionPage,
  grantExtension,
  signOutExtension,
  takeExtensionSession,
} from "./extension.operations.ts";

/** The upload's JSON: the page at its limit, the screenshot in base64, and the other fields. */
const MAX_UPLOAD_BODY =
  EXTENSION_MAX_PAGE_BYTES + Math.ceil((EXTENSION_MAX_SCREENSHOT_BYTES * 4) / 3) + 64 * 1024;

export async function extensionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth } = ctx;
  const { db } = ctx.database;
  const fromExtension = (request: FastifyRequest) => {
    if (!isExtensionOrigin(request.headers.origin, ctx.config.extensionOrigins))
      throw new ForbiddenError(EXTENSION_MESSAGES.notFromExtension, "extension/origin");
  };
  /** The extension's credential, resolved before the route (modules/auth/api-tokens.ts). */
  const requireExtension = (request: FastifyRequest): ExtensionPrincipal => {
    fromExtension(request);
    const principal = request.principal;
    if (principal?.kind !== "extension")
      throw new UnauthorizedError(EXTENSION_MESSAGES.invalid, "extension/signed-out");
    if (!principal.user.emailVerified)
      throw new ForbiddenError("Verify your e-mail first.", "auth/email-not-verified");
    return principal;
  };
  const actorOf = (principal: ExtensionPrincipal): Actor => ({
    kind: principal.kind,
    user: principal.user,
    sessionCreatedAt: principal.createdAt,
  });

  app.post(
    "/api/extension/grants",
    route({
      summary: "Approve the browser extension that shows this challenge (it then takes its credential)",
      body: extensionGrantSchema,
      action: "self",
      accepts: ["session"],
      response: messageAnswer,
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const sessionId = await sessionIdOf(auth, db, request);
      if (!sessionId) throw new UnauthorizedError();
      reply.status(201);
      return grantExtension(ctx, { actor, sessionId }, requestInput(request));
    },
  );

  app.post(
    "/api/extension/session",
    route({
      summary: "The extension takes its credential for an approved challenge (from the extension only)",
      body: extensionSessionSchema,
      action: "public",
      accepts: ["extension"],
      response: dataAnswer(extensionSessionAnswerSchema),
    }),
    async (request, reply) => {
      fromExtension(request);
      reply.status(201);
      return takeExtensionSession(ctx, null, requestInput(request));
    },
  );

  app.delete(
    "/api/extension/session",
    route({
      summary: "Sign the extension out (its credential is revoked)",
      action: "self",
      accepts: ["extension"],
      response: messageAnswer,
    }),
    async (request) => signOutExtension(ctx, requireExtension(request), {}),
  );

  app.get(
    "/api/extension/projects",
    route({
      summary: "The projects the extension may add pages to (those you may edit)",
      action: "self",
      accepts: ["extension"],
      response: dataAnswer(z.array(extensionProjectSchema)),
    }),
    async (request): Promise<{ data: ExtensionProject[] }> => {
      const principal = requireExtension(request);
      return { data: await extensionProjects(db, principal.user.id) };
    },
  );

  app.post(
    "/api/extension/pages",
    route(
      {
        summary: "Add the tab's serialized page as a new page or version (sanitized before it is shown)",
        body: extensionAddPageSchema,
        action: "pages.create",
        accepts: ["extension"],
        response: dataAnswer(extensionAddedSchema),
      },
      {
        bodyLimit: MAX_UPLOAD_BODY,
        // Refused before the body is read, with a message for the popup.
        onRequest: async (request: FastifyRequest) => {
          if (Number(request.headers["content-length"] ?? 0) > MAX_UPLOAD_BODY)
            throw new PayloadTooLargeError(EXTENSION_MESSAGES.tooLarge, "extension/too-large");
        },
      },
    ),
    async (request, reply) => {
      const principal = requireExtension(request);
      reply.status(201);
      return addExtensionPage(ctx, actorOf(principal), requestInput(request));
    },
  );

  app.get(
    "/api/extension/threads",
    route({
      summary: "Open threads on the pages at an address, in your projects (the extension's badge)",
      query: extensionThreadsQuerySchema,
      action: "self",
      accepts: ["extension"],
      response: dataAnswer(z.array(extensionThreadSchema)),
    }),
    async (request): Promise<{ data: ExtensionThread[] }> => {
      const principal = requireExtension(request);
      const { url } = extensionThreadsQuerySchema.parse(request.query);
      return { data: await openThreadsAt(db, principal.user.id, url) };
    },
  );
}
