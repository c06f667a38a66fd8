/**
 * Tickets on a board over HTTP (SPEC §3 Ticket, §4 states): read one with its thread here; writing,
 * editing, moving, triaging and deleting are operations (tickets.operations.ts), which authorize.
 */
import {
  boardItemDeletedSchema,
  createTicketSchema,
  dataAnswer,
  moveTicketSchema,
  ticketDetailSchema,
  ticketSchema,
  triageTicketSchema,
  updateTicketSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { loadTicket } from "./tickets.load.ts";
import {
  deleteTicket,
  moveTicket,
  ticketParams,
  triageReport,
  updateTicket,
  writeTicket,
} from "./tickets.operations.ts";
import { authorizeTicket, withTicketAbilities } from "./tickets.policy.ts";
import { ticketDetailNow } from "./tickets.service.ts";

export async function ticketsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.post(
    "/api/projects/:projectId/tickets",
    route({
      summary: "Write a ticket into a list",
      body: createTicketSchema,
      action: "tickets.create",
      response: dataAnswer(ticketSchema),
    }),
    async (request, reply) => {
      const written = await writeTicket(ctx, await requireActor(request), requestInput(request));
      reply.status(201);
      return written;
    },
  );

  app.get(
    "/api/tickets/:ticketId",
    route({
      summary: "A ticket with its report and thread",
      action: "tickets.read",
      response: dataAnswer(ticketDetailSchema),
    }),
    async (request) => {
      const actor = await requireActor(request);
      const { ticket, access } = await loadTicket(db, actor, ticketParams.parse(request.params).ticketId);
      const reader = policyActorOf(actor, access);
      authorizeTicket(reader, "tickets.read");
      return { data: withTicketAbilities(reader, await ticketDetailNow(db, ticket.id)) };
    },
  );

  app.patch(
    "/api/tickets/:ticketId",
    route({
      summary: "Edit, assign, set the due date, resolve or reopen a ticket",
      body: updateTicketSchema,
      action: "tickets.update",
      response: dataAnswer(ticketDetailSchema),
    }),
    async (request) => updateTicket(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    "/api/tickets/:ticketId/move",
    route({
      summary: "Move a card into a list between two cards",
      body: moveTicketSchema,
      action: "tickets.move",
      response: dataAnswer(ticketSchema),
    }),
    async (request) => moveTicket(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    "/api/tickets/:ticketId/triage",
    route({
      summary: "Accept a report into a list, merge it into another ticket, or reject it",
      body: triageTicketSchema,
      action: "tickets.triage",
      response: dataAnswer(ticketSchema),
    }),
    async (request) => triageReport(ctx, await requireActor(request), requestInput(request)),
  );

  app.delete(
    "/api/tickets/:ticketId",
    route({
      summary: "Delete a ticket and its files",
      action: "tickets.delete",
      response: dataAnswer(boardItemDeletedSchema),
    }),
    async (request) =>
      deleteTicket({ ...ctx, log: request.log }, await requireActor(request), requestInput(request)),
  );
}
