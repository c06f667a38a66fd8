/**
 * A widget reporter's screen recording (issue #33): the intake's answer for a new report carries an upload
 * token — signed, bound to that ticket, valid `WIDGET_VIDEO_TOKEN_MINUTES` — with which the reporter's page
 * uploads the video (tus, the videos module's routes and store) and then names it: it becomes the video of
 * the report's first entry, measured and processed as a reply's is, against the project owner's plan.
 * Called cross-site like the intake: the token stands in for a session, and the ticket's project's allowed
 * origins for the same-origin check. The recipe: the token (401; another ticket's 403) → the ticket (404)
 * → the Origin (403) → the project still takes reports (403) → the report has no video yet (409).
 * Before any of that, the recorder asks how long a recording may be (`WIDGET_VIDEO_LIMIT_PATH`, by the
 * widget key and an allowed origin, as the intake is asked): its timer shows what is left and stops there.
 */
import {
  dataAnswer,
  WIDGET_VIDEO_LIMIT_PATH,
  WIDGET_VIDEO_TOKEN_HEADER,
  WIDGET_VIDEO_TOKEN_MINUTES,
  widgetVideoSchema,
} from "@redline/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { tickets } from "../../db/schema/index.ts";
import type { AppConfig } from "../../env.ts";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "../../lib/errors.ts";
import { route } from "../../lib/routes.ts";
import { pathSignature, verifyPath } from "../../lib/signed-url.ts";
import { assertFirstEntryTakesVideo, attachFirstEntryVideo } from "../tickets/ticket-video.ts";
import { acceptVideo, videoLimitOf } from "../videos/processing.ts";
import { acceptTusChunks, registerUploadRoutes } from "../videos/video.routes.ts";
import { normalizeOrigin, WIDGET_MESSAGES, widgetByKey, widgetOfProject } from "./widget.settings.ts";

const ticketParams = z.object({ ticketId: z.string().min(1).max(64) });
const widgetKeyQuery = z.object({ key: z.string().min(1).max(64) });
const uploadsOf = (ticketId: string) => `/api/widget/tickets/${ticketId}/videos`;
const attachOf = (ticketId: string) => `/api/widget/tickets/${ticketId}/video`;
const tokenSecret = (config: Pick<AppConfig, "authSecret">) => `widget-video:${config.authSecret}`;

/** What the intake answers about a new report's video: where to upload it, and the token. */
export function widgetVideoGrant(config: Pick<AppConfig, "authSecret">, ticketId: string, now = Date.now()) {
  const expires = Math.floor(now / 1000) + WIDGET_VIDEO_TOKEN_MINUTES * 60;
  const signature = pathSignature(tokenSecret(config), uploadsOf(ticketId), expires);
  return {
    uploads: uploadsOf(ticketId),
    attach: attachOf(ticketId),
    token: `${ticketId}.${expires}.${signature}`,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

export const WIDGET_VIDEO_MESSAGES = {
  noToken: "Send the report's upload token to upload its recording.",
  badToken: "The recording's upload token is not valid or has expired. Send a new report to attach one.",
  otherTicket: "This upload token belongs to another report.",
} as const;

/** The uploader a report's recording is uploaded as: its ticket, so an upload serves that ticket alone. */
const uploaderFor = (ticketId: string) => `widget-${ticketId}`;

export async function widgetVideoRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  /** The ticket's project's widget, when `origin` may send it reports. */
  const widgetFor = async (ticketId: string, origin: string | null) => {
    const [ticket] = await db.select().from(tickets).where(eq(tickets.id, ticketId));
    if (!ticket) throw new NotFoundError("Ticket not found.", "ticket-not-found");
    const found = await widgetOfProject(db, ticket.projectId);
    if (!found || !origin || !found.settings.allowedOrigins.includes(origin))
      throw new ForbiddenError(WIDGET_MESSAGES.originNotAllowed, "origin-not-allowed");
    return { ticket, ...found };
  };

  /** The token, the ticket, the Origin (answers readable by it from then on), the project, no video yet. */
  async function authorize(request: FastifyRequest, reply: FastifyReply) {
    const { ticketId } = ticketParams.parse(request.params);
    const token = request.headers[WIDGET_VIDEO_TOKEN_HEADER];
    if (typeof token !== "string" || token === "")
      throw new UnauthorizedError(WIDGET_VIDEO_MESSAGES.noToken, "upload-token-missing");
    const [forTicket = "", exp, sig, ...rest] = token.split(".");
    if (rest.length > 0 || !verifyPath(tokenSecret(ctx.config), uploadsOf(forTicket), exp, sig))
      throw new UnauthorizedError(WIDGET_VIDEO_MESSAGES.badToken, "upload-token-invalid");
    if (forTicket !== ticketId)
      throw new ForbiddenError(WIDGET_VIDEO_MESSAGES.otherTicket, "upload-token-other-ticket");
    const origin = normalizeOrigin(request.headers.origin ?? "");
    const { ticket, project, isExpired } = await widgetFor(ticketId, origin);
    reply
      .header("access-control-allow-origin", origin)
      .header("access-control-expose-headers", "location, upload-offset, upload-length, tus-resumable")
      .header("vary", "origin");
    if (isExpired || project.isArchived) throw new ForbiddenError(WIDGET_MESSAGES.expired, "project-expired");
    await assertFirstEntryTakesVideo(db, ticket.id);
    return { ticket, project, uploader: uploaderFor(ticket.id) };
  }

  // The browser asks before each tus request (its headers are not simple ones) and before naming the upload.
  app.options(
    "/api/widget/tickets/:ticketId/*",
    route({
      summary: "CORS preflight of a widget report's video upload",
      action: "public",
      accepts: ["widget-key"],
      response: "not-json",
    }),
    async (request, reply) => {
      const origin = normalizeOrigin(request.headers.origin ?? "");
      await widgetFor(ticketParams.parse(request.params).ticketId, origin);
      return reply
        .header("access-control-allow-origin", origin)
        .header("vary", "origin")
        .header("access-control-allow-methods", "GET, POST, HEAD, PATCH, DELETE")
        .header(
          "access-control-allow-headers",
          `content-type, tus-resumable, upload-length, upload-offset, upload-metadata, ${WIDGET_VIDEO_TOKEN_HEADER}`,
        )
        .header("access-control-max-age", "600")
        .status(204)
        .send();
    },
  );

  // A simple GET (no preflight): the key in the query, the Origin the browser sends.
  app.get(
    WIDGET_VIDEO_LIMIT_PATH,
    route({
      summary: "The longest recording the widget's project owner's plan allows (its widget key)",
      action: "public",
      accepts: ["widget-key"],
      // -1: no limit; 0: recordings are not in the plan.
      response: dataAnswer(z.strictObject({ limitSeconds: z.number().int().min(-1) })),
    }),
    async (request, reply) => {
      const { key } = widgetKeyQuery.parse(request.query);
      const found = await widgetByKey(db, key);
      if (!found) throw new NotFoundError(WIDGET_MESSAGES.unknownKey, "widget-key-unknown");
      const origin = normalizeOrigin(request.headers.origin ?? "");
      if (!origin || !found.settings.allowedOrigins.includes(origin))
        throw new ForbiddenError(WIDGET_MESSAGES.originNotAllowed, "origin-not-allowed");
      reply.header("access-control-allow-origin", origin).header("vary", "origin");
      if (found.isExpired || found.project.isArchived)
        throw new ForbiddenError(WIDGET_MESSAGES.expired, "project-expired");
      return { data: { limitSeconds: await videoLimitOf(db, found.project, ctx.config.plansEnabled) } };
    },
  );

  acceptTusChunks(app);
  registerUploadRoutes(app, ctx, {
    path: "/api/widget/tickets/:ticketId/videos",
    action: "public",
    who: " for a widget report (its upload token)",
    accepts: ["widget-key"],
    uploaderOf: authorize,
  });

  app.post(
    "/api/widget/tickets/:ticketId/video",
    route({
      summary: "Attach a widget report's uploaded recording to its first entry (its upload token)",
      action: "public",
      accepts: ["widget-key"],
      body: widgetVideoSchema,
      response: dataAnswer(
        z.strictObject({ videoStatus: z.literal("processing"), videoDuration: z.number() }),
      ),
    }),
    async (request, reply) => {
      const { ticket, project, uploader } = await authorize(request, reply);
      const { upload } = widgetVideoSchema.parse(request.body);
      // Measured on the server (not a video 400, past the plan 402, storage); refused, the upload goes.
      const video = await acceptVideo(ctx, project, uploader, { upload });
      await attachFirstEntryVideo(ctx, ticket.id, video);
      return reply.status(202).send({ data: { videoStatus: "processing", videoDuration: video.duration } });
    },
  );
}
