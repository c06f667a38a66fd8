/**
 * A ticket's thread over HTTP — replying, editing and deleting entries are operations
 * (ticket-thread.operations.ts) — the report's stored screenshot and session replay, and the entries'
 * recorded videos: uploaded (tus) by whoever may attach to the ticket, played by its readers.
 */
import {
  dataAnswer,
  editTicketEntrySchema,
  ticketDetailSchema,
  ticketEntryDeletedSchema,
  ticketEntrySchema,
} from "@redline/shared";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { requestInput } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { acceptTusChunks, registerUploadRoutes, sendRange, videoTypeOf } from "../videos/video.routes.ts";
import { deleteTicketEntry, editTicketEntry, replyOnTicket } from "./ticket-thread.operations.ts";
import { loadTicket, loadTicketEntry } from "./tickets.load.ts";
import { ticketParams } from "./tickets.operations.ts";
import { authorizeTicket } from "./tickets.policy.ts";

const entryParams = ticketParams.extend({ entryId: z.string().min(1).max(64) });

export async function ticketThreadRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { storage } = ctx;
  const { db } = ctx.database;

  app.post(
    "/api/tickets/:ticketId/entries",
    route({
      summary: "Reply on a ticket's thread",
      body: ticketEntrySchema,
      action: "tickets.reply",
      response: dataAnswer(ticketDetailSchema),
    }),
    async (request, reply) => {
      const replied = await replyOnTicket(ctx, await requireActor(request), requestInput(request));
      reply.status(201);
      return replied;
    },
  );

  app.patch(
    "/api/tickets/:ticketId/entries/:entryId",
    route({
      summary: "Edit one's own entry",
      body: editTicketEntrySchema,
      action: "ticketEntries.edit",
      response: dataAnswer(ticketDetailSchema),
    }),
    async (request) => editTicketEntry(ctx, await requireActor(request), requestInput(request)),
  );

  app.delete(
    "/api/tickets/:ticketId/entries/:entryId",
    route({
      summary: "Delete an entry (the only one deletes the ticket)",
      action: "ticketEntries.delete",
      response: dataAnswer(ticketEntryDeletedSchema),
    }),
    async (request) =>
      deleteTicketEntry({ ...ctx, log: request.log }, await requireActor(request), requestInput(request)),
  );

  const serveFile =
    (kind: "screenshot" | "replay") => async (request: FastifyRequest, reply: FastifyReply) => {
      const actor = await requireActor(request);
      const { ticket, access } = await loadTicket(db, actor, ticketParams.parse(request.params).ticketId);
      authorizeTicket(policyActorOf(actor, access), "tickets.read");
      const key = kind === "screenshot" ? ticket.screenshotKey : ticket.replayKey;
      const stored = key ? await storage.get(key) : null;
      if (!stored) throw new NotFoundError(`This ticket has no ${kind}.`, `no-${kind}`);
      return reply
        .header("content-type", kind === "screenshot" ? "image/png" : "application/json; charset=utf-8")
        .header("content-length", stored.size)
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, max-age=31536000")
        .send(stored.stream);
    };

  app.get(
    "/api/tickets/:ticketId/screenshot",
    route({ summary: "The report's screenshot (PNG)", action: "tickets.read", response: "not-json" }),
    serveFile("screenshot"),
  );
  app.get(
    "/api/tickets/:ticketId/replay",
    // A stored file (the recorded events as the widget sent them), streamed as it is.
    route({ summary: "The report's session replay (JSON)", action: "tickets.read", response: "not-json" }),
    serveFile("replay"),
  );

  // Recording on a ticket: who may attach to it uploads as themselves, into the ticket's project.
  acceptTusChunks(app);
  registerUploadRoutes(app, ctx, {
    path: "/api/tickets/:ticketId/videos",
    action: "tickets.attach",
    who: " for a ticket's entry",
    async uploaderOf(request) {
      const actor = await requireActor(request);
      const { project, access } = await loadTicket(db, actor, ticketParams.parse(request.params).ticketId);
      authorizeTicket(policyActorOf(actor, access), "tickets.attach");
      return { project, uploader: actor.user.id };
    },
  });

  const readVideo = (kind: "video" | "poster") => async (request: FastifyRequest, reply: FastifyReply) => {
    const params = entryParams.parse(request.params);
    const actor = await requireActor(request);
    const { ticket, access } = await loadTicket(db, actor, params.ticketId);
    authorizeTicket(policyActorOf(actor, access), "tickets.read");
    const entry = await loadTicketEntry(db, ticket.id, params.entryId);
    const key = kind === "video" ? entry.videoKey : entry.videoPosterKey;
    const stored = key ? await storage.get(key) : null;
    if (!key || !stored) throw new NotFoundError("This entry has no video.", "video-not-found");
    return sendRange(request, reply, stored, videoTypeOf(key, kind));
  };
  app.get(
    "/api/tickets/:ticketId/entries/:entryId/video",
    route({ summary: "Play a ticket entry's video", action: "tickets.read", response: "not-json" }),
    readVideo("video"),
  );
  app.get(
    "/api/tickets/:ticketId/entries/:entryId/poster",
    route({ summary: "A ticket entry video's poster", action: "tickets.read", response: "not-json" }),
    readVideo("poster"),
  );
}
