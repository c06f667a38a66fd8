/**
 * A ticket's thread (replies with mentions and attachments; an author edits their entry; deleting the
 * only entry deletes the ticket, SPEC §4) and the report's stored screenshot and session replay.
 */
import { deletingEntryDeletesTicket, editTicketEntrySchema, ticketEntrySchema } from "@redline/shared";
import { count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { ticketEntries, tickets } from "../../db/schema/index.ts";
import { ConflictError, NotFoundError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { memberActor } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { storedAttachments } from "../comments/attachments.routes.ts";
import { releaseFilesOf, removeReleasedFiles } from "../files/stored-files.ts";
import { notify } from "../notifications/notify.ts";
import { meterStorage } from "../plans/storage.ts";
import { loadTicket, loadTicketEntry } from "./tickets.load.ts";
import { authorizeTicket, withTicketAbilities } from "./tickets.policy.ts";
import {
  publishTicket,
  publishTicketDeleted,
  releaseTicketFiles,
  ticketDetailNow,
} from "./tickets.service.ts";

const ticketParams = z.object({ ticketId: z.string().min(1).max(64) });
const entryParams = ticketParams.extend({ entryId: z.string().min(1).max(64) });

export async function ticketThreadRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth, storage } = ctx;
  const { db } = ctx.database;
  const { plansEnabled } = ctx.config;

  app.post(
    "/api/tickets/:ticketId/entries",
    route({ summary: "Reply on a ticket's thread", body: ticketEntrySchema, action: "tickets.reply" }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const { ticket, access } = await loadTicket(db, actor, ticketParams.parse(request.params).ticketId);
      const writer = memberActor(actor.user.id, access);
      authorizeTicket(writer, "tickets.reply");
      const input = ticketEntrySchema.parse(request.body);
      if (input.attachments.length > 0) authorizeTicket(writer, "tickets.attach");
      const attachments = await storedAttachments(storage, ticket.projectId, input.attachments);
      await db.transaction(async (tx) => {
        const meter = attachments.length > 0 ? await meterStorage(tx, ticket.projectId, plansEnabled) : null;
        const [held] = await tx
          .select({ id: tickets.id })
          .from(tickets)
          .where(eq(tickets.id, ticket.id))
          .for("update");
        if (!held) throw new ConflictError("The ticket was deleted meanwhile.", "ticket-gone");
        await tx.insert(ticketEntries).values({
          id: newId(),
          ticketId: ticket.id,
          userId: actor.user.id,
          body: input.comment,
          attachments,
        });
        await meter?.check();
        await tx.update(tickets).set({ modifiedAt: new Date() }).where(eq(tickets.id, ticket.id));
        await publishTicket(tx, ticket.projectId, ticket.id);
        await notify(tx, {
          on: "ticket.replied",
          actor: { userId: actor.user.id },
          ticket: { id: ticket.id, projectId: ticket.projectId },
          text: input.comment,
        });
      });
      reply.status(201);
      return { data: withTicketAbilities(writer, await ticketDetailNow(db, ticket.id)) };
    },
  );

  app.patch(
    "/api/tickets/:ticketId/entries/:entryId",
    route({ summary: "Edit one's own entry", body: editTicketEntrySchema, action: "ticketEntries.edit" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const params = entryParams.parse(request.params);
      const { ticket, access } = await loadTicket(db, actor, params.ticketId);
      const writer = memberActor(actor.user.id, access);
      authorizeTicket(writer, "tickets.read");
      const entry = await loadTicketEntry(db, ticket.id, params.entryId);
      authorizeTicket(writer, "ticketEntries.edit", { authorId: entry.userId });
      const input = editTicketEntrySchema.parse(request.body);
      await db.transaction(async (tx) => {
        await tx
          .update(ticketEntries)
          .set({ body: input.comment, editedAt: new Date() })
          .where(eq(ticketEntries.id, entry.id));
        await publishTicket(tx, ticket.projectId, ticket.id);
      });
      return { data: withTicketAbilities(writer, await ticketDetailNow(db, ticket.id)) };
    },
  );

  app.delete(
    "/api/tickets/:ticketId/entries/:entryId",
    route({ summary: "Delete an entry (the only one deletes the ticket)", action: "ticketEntries.delete" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const params = entryParams.parse(request.params);
      const { ticket, access } = await loadTicket(db, actor, params.ticketId);
      const writer = memberActor(actor.user.id, access);
      authorizeTicket(writer, "tickets.read");
      const entry = await loadTicketEntry(db, ticket.id, params.entryId);
      authorizeTicket(writer, "ticketEntries.delete", { authorId: entry.userId });
      const { ticketDeleted, files } = await db.transaction(async (tx) => {
        // Under the ticket's lock, so two deletions of its last two entries cannot leave it empty.
        const [held] = await tx
          .select({ id: tickets.id })
          .from(tickets)
          .where(eq(tickets.id, ticket.id))
          .for("update");
        if (!held) throw new ConflictError("The ticket was deleted meanwhile.", "ticket-gone");
        const [{ entries } = { entries: 0 }] = await tx
          .select({ entries: count() })
          .from(ticketEntries)
          .where(eq(ticketEntries.ticketId, ticket.id));
        if (deletingEntryDeletesTicket(entries)) {
          const released = await releaseTicketFiles(tx, [ticket.id], () =>
            tx.delete(tickets).where(eq(tickets.id, ticket.id)),
          );
          await publishTicketDeleted(tx, ticket.projectId, ticket.id);
          return { ticketDeleted: true, files: released };
        }
        const released = await releaseFilesOf(tx, [{ kinds: ["ticket_attachment"], ids: [entry.id] }], () =>
          tx.delete(ticketEntries).where(eq(ticketEntries.id, entry.id)),
        );
        await tx.update(tickets).set({ modifiedAt: new Date() }).where(eq(tickets.id, ticket.id));
        await publishTicket(tx, ticket.projectId, ticket.id);
        return { ticketDeleted: false, files: released };
      });
      await removeReleasedFiles(ctx, files, request.log);
      return { data: { ticketDeleted } };
    },
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
