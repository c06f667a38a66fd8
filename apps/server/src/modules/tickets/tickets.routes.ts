/**
 * Tickets on a board (SPEC §3 Ticket, §4 states): write one into a list, read it with its thread, edit,
 * assign, set its due date, resolve or reopen it (a widget reporter who gave an e-mail is told once it
 * is resolved), move it between two cards (one row written), triage a widget report, delete it.
 */
import {
  createTicketSchema,
  moveTicketSchema,
  sortKeyBetween,
  triageTicketSchema,
  updateTicketSchema,
} from "@redline/shared";
import { and, eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { tickets } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { ticketResolvedMail } from "../../lib/mail/templates.ts";
import { memberActor } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { removeReleasedFiles } from "../files/stored-files.ts";
import { boardPeople, loadBoardProject, loadTicket } from "./tickets.load.ts";
import { authorizeTicket, withTicketAbilities } from "./tickets.policy.ts";
import {
  createTicket,
  endOfList,
  listOfProject,
  lockTicket,
  publishTicket,
  publishTicketDeleted,
  releaseTicketFiles,
  ticketDetailNow,
  ticketNow,
} from "./tickets.service.ts";
import { triageTicket } from "./tickets.triage.ts";

const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const ticketParams = z.object({ ticketId: z.string().min(1).max(64) });

/** The moved card's neighbours: cards of the target list, not the card itself. */
async function neighbourKeys(tx: Database, ticketId: string, listId: string, ids: (string | null)[]) {
  const wanted = ids.filter((id): id is string => id !== null);
  const rows =
    wanted.length === 0
      ? []
      : await tx
          .select({ id: tickets.id, sortKey: tickets.sortKey })
          .from(tickets)
          .where(and(inArray(tickets.id, wanted), eq(tickets.listId, listId)));
  return ids.map((id) => {
    if (id === null) return null;
    const row = rows.find((candidate) => candidate.id === id);
    if (!row || id === ticketId) throw new BadRequestError("No such card to move next to.", "bad-neighbour");
    return row.sortKey;
  });
}

export async function ticketsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth } = ctx;
  const { db } = ctx.database;

  app.post(
    "/api/projects/:projectId/tickets",
    route({ summary: "Write a ticket into a list", body: createTicketSchema, action: "tickets.create" }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const { project, access } = await loadBoardProject(
        db,
        actor,
        projectParams.parse(request.params).projectId,
      );
      const writer = memberActor(actor.user.id, access);
      authorizeTicket(writer, "tickets.create");
      const input = createTicketSchema.parse(request.body);
      const ticket = await createTicket(ctx, {
        projectId: project.id,
        listId: input.listId,
        title: input.title,
        description: input.description,
        firstEntry: input.description.trim() || input.title,
        reporter: { userId: actor.user.id },
      });
      reply.status(201);
      return { data: withTicketAbilities(writer, ticket) };
    },
  );

  app.get(
    "/api/tickets/:ticketId",
    route({ summary: "A ticket with its report and thread", action: "tickets.read" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { ticket, access } = await loadTicket(db, actor, ticketParams.parse(request.params).ticketId);
      const reader = memberActor(actor.user.id, access);
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
    }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { ticket, access } = await loadTicket(db, actor, ticketParams.parse(request.params).ticketId);
      const writer = memberActor(actor.user.id, access);
      authorizeTicket(writer, "tickets.read");
      const input = updateTicketSchema.parse(request.body);
      const edits = ["title", "description", "dueDate"].some((key) => key in input);
      if (edits || Object.keys(input).length === 0) authorizeTicket(writer, "tickets.update");
      if (input.assignedTo !== undefined) authorizeTicket(writer, "tickets.assign");
      if (input.isResolved !== undefined) authorizeTicket(writer, "tickets.resolve");
      if (input.assignedTo) {
        const person = (await boardPeople(db, ticket.projectId)).get(input.assignedTo);
        if (!person?.isAssignable)
          throw new BadRequestError("Assign the ticket to one of the project's people.", "not-an-assignee");
      }
      const resolvedNow = await db.transaction(async (tx) => {
        const current = await lockTicket(tx, ticket.id);
        const resolving = input.isResolved === true && !current.isResolved;
        const now = new Date();
        await tx
          .update(tickets)
          .set({
            ...(input.title !== undefined && { title: input.title }),
            ...(input.description !== undefined && { description: input.description }),
            ...(input.assignedTo !== undefined && { assignedTo: input.assignedTo }),
            ...(input.dueDate !== undefined && { dueDate: input.dueDate }),
            ...(input.isResolved !== undefined &&
              input.isResolved !== current.isResolved && {
                isResolved: input.isResolved,
                resolvedBy: input.isResolved ? actor.user.id : null,
                resolvedAt: input.isResolved ? now : null,
              }),
            modifiedAt: now,
          })
          .where(eq(tickets.id, ticket.id));
        await publishTicket(tx, ticket.projectId, ticket.id);
        return resolving ? current : null;
      });
      // Once, on the change to resolved (the row lock above decides which of two resolves it is).
      if (resolvedNow?.reporterEmail)
        await ctx.mailer.send(
          ticketResolvedMail({
            to: resolvedNow.reporterEmail,
            reporterName: resolvedNow.reporterName ?? "there",
            ticketTitle: input.title ?? resolvedNow.title,
            pageUrl: resolvedNow.report?.pageUrl ?? null,
          }),
        );
      return { data: withTicketAbilities(writer, await ticketDetailNow(db, ticket.id)) };
    },
  );

  app.post(
    "/api/tickets/:ticketId/move",
    route({
      summary: "Move a card into a list between two cards",
      body: moveTicketSchema,
      action: "tickets.move",
    }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { ticket, access } = await loadTicket(db, actor, ticketParams.parse(request.params).ticketId);
      const writer = memberActor(actor.user.id, access);
      authorizeTicket(writer, "tickets.move");
      const input = moveTicketSchema.parse(request.body);
      await db.transaction(async (tx) => {
        const current = await lockTicket(tx, ticket.id);
        if (current.intake !== "accepted")
          throw new BadRequestError(
            current.intake === "triage"
              ? "Accept the report into a list first."
              : "This ticket is no longer on the board.",
            "ticket-not-on-board",
          );
        await listOfProject(tx, ticket.projectId, input.listId);
        const [after, before] = await neighbourKeys(tx, ticket.id, input.listId, [
          input.afterId,
          input.beforeId,
        ]);
        await tx
          .update(tickets)
          .set({
            listId: input.listId,
            // No neighbour named: to the end of the list.
            sortKey:
              input.afterId === null && input.beforeId === null
                ? await endOfList(tx, ticket.projectId, input.listId)
                : sortKeyBetween(after!, before!),
            modifiedAt: new Date(),
          })
          .where(eq(tickets.id, ticket.id));
        await publishTicket(tx, ticket.projectId, ticket.id);
      });
      return { data: withTicketAbilities(writer, await ticketNow(db, ticket.id)) };
    },
  );

  app.post(
    "/api/tickets/:ticketId/triage",
    route({
      summary: "Accept a report into a list, merge it into another ticket, or reject it",
      body: triageTicketSchema,
      action: "tickets.triage",
    }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { ticket, access } = await loadTicket(db, actor, ticketParams.parse(request.params).ticketId);
      const writer = memberActor(actor.user.id, access);
      authorizeTicket(writer, "tickets.triage");
      const input = triageTicketSchema.parse(request.body);
      await db.transaction((tx) => triageTicket(tx, ticket, input, ctx.config.plansEnabled));
      return { data: withTicketAbilities(writer, await ticketNow(db, ticket.id)) };
    },
  );

  app.delete(
    "/api/tickets/:ticketId",
    route({ summary: "Delete a ticket and its files", action: "tickets.delete" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { ticket, access } = await loadTicket(db, actor, ticketParams.parse(request.params).ticketId);
      authorizeTicket(memberActor(actor.user.id, access), "tickets.delete");
      const files = await db.transaction(async (tx) => {
        const released = await releaseTicketFiles(tx, [ticket.id], () =>
          tx.delete(tickets).where(eq(tickets.id, ticket.id)),
        );
        await publishTicketDeleted(tx, ticket.projectId, ticket.id);
        return released;
      });
      await removeReleasedFiles(ctx, files, request.log);
      return { data: { deleted: true } };
    },
  );
}
