/**
 * A ticket's thread over HTTP — replying, editing and deleting entries are operations
 * (ticket-thread.operations.ts) — and the report's stored screenshot and session replay.
 */
import { editTicketEntrySchema, ticketEntrySchema } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { requestInput } from "../../lib/operations.ts";
import { memberActor } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { deleteTicketEntry, editTicketEntry, replyOnTicket } from "./ticket-thread.operations.ts";
import { loadTicket } from "./tickets.load.ts";
import { ticketParams } from "./tickets.operations.ts";
import { authorizeTicket } from "./tickets.policy.ts";

export async function ticketThreadRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth, storage } = ctx;
  const { db } = ctx.database;

  app.post(
    "/api/tickets/:ticketId/entries",
    route({ summary: "Reply on a ticket's thread", body: ticketEntrySchema, action: "tickets.reply" }),
    async (request, reply) => {
      const replied = await replyOnTicket(ctx, await requireActor(auth, db, request), requestInput(request));
      reply.status(201);
      return replied;
    },
  );

  app.patch(
    "/api/tickets/:ticketId/entries/:entryId",
    route({ summary: "Edit one's own entry", body: editTicketEntrySchema, action: "ticketEntries.edit" }),
    async (request) => editTicketEntry(ctx, await requireActor(auth, db, request), requestInput(request)),
  );

  app.delete(
    "/api/tickets/:ticketId/entries/:entryId",
    route({ summary: "Delete an entry (the only one deletes the ticket)", action: "ticketEntries.delete" }),
    async (request) =>
      deleteTicketEntry(
        { ...ctx, log: request.log },
        await requireActor(auth, db, request),
        requestInput(request),
      ),
  );

  const serveFile =
    (kind: "screenshot" | "replay") =>
    async (request: import("fastify").FastifyRequest, reply: import("fastify").FastifyReply) => {
      const actor = await requireActor(auth, db, request);
      const { ticket, access } = await loadTicket(db, actor, ticketParams.parse(request.params).ticketId);
      authorizeTicket(memberActor(actor.user.id, access), "tickets.read");
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
    route({ summary: "The report's screenshot (PNG)", action: "tickets.read" }),
    serveFile("screenshot"),
  );
  app.get(
    "/api/tickets/:ticketId/replay",
    route({ summary: "The report's session replay (JSON)", action: "tickets.read" }),
    serveFile("replay"),
  );
}
