/**
 * A ticket's writes on a board (SPEC §3 Ticket, §4 states; lib/operations.ts): write one into a list,
 * edit, assign, set its due date, resolve or reopen it (a widget reporter who gave an e-mail is told once
 * it is resolved), move it between two cards (one row written), triage a widget report, delete it.
 */
import {
  createTicketSchema,
  moveTicketSchema,
  sortKeyBetween,
  triageTicketSchema,
  updateTicketSchema,
} from "@redline/shared";
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { tickets } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { ticketResolvedMail } from "../../lib/mail/templates.ts";
import { type LoggedContext, operation, withParams } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import type { Actor } from "../auth/session.ts";
import { removeReleasedFiles } from "../files/stored-files.ts";
import { recordTicketEvent } from "./tickets.events.ts";
import { boardPeople, loadBoardProject, loadTicket } from "./tickets.load.ts";
import { authorizeTicket, withTicketAbilities } from "./tickets.policy.ts";
import {
  createTicket,
  endOfList,
  listOfProject,
  lockTicket,
  recordTicketDeleted,
  recordTicketsChanged,
  releaseTicketFiles,
  ticketDetailNow,
  ticketNow,
  ticketState,
} from "./tickets.service.ts";
import { triageTicket } from "./tickets.triage.ts";

export const projectParams = z.object({ projectId: z.string().min(1).max(64) });
export const ticketParams = z.object({ ticketId: z.string().min(1).max(64) });

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

export const writeTicket = operation(
  "tickets.create",
  withParams(projectParams, createTicketSchema),
  async (ctx, actor: Actor, { projectId, ...input }) => {
    const { db } = ctx.database;
    const { project, access } = await loadBoardProject(db, actor, projectId);
    const writer = policyActorOf(actor, access);
    authorizeTicket(writer, "tickets.create");
    const ticket = await createTicket(ctx, {
      projectId: project.id,
      listId: input.listId,
      title: input.title,
      description: input.description,
      firstEntry: input.description.trim() || input.title,
      reporter: { userId: actor.user.id },
    });
    return { data: withTicketAbilities(writer, ticket) };
  },
);

/** Edit, assign, set the due date, resolve or reopen a ticket. */
export const updateTicket = operation(
  "tickets.update",
  withParams(ticketParams, updateTicketSchema),
  async (ctx, actor: Actor, { ticketId, ...input }) => {
    const { db } = ctx.database;
    const { ticket, access } = await loadTicket(db, actor, ticketId);
    const writer = policyActorOf(actor, access);
    authorizeTicket(writer, "tickets.read");
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
      await recordTicketsChanged(tx, ticket.projectId, ticket.id);
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

export const moveTicket = operation(
  "tickets.move",
  withParams(ticketParams, moveTicketSchema),
  async (ctx, actor: Actor, { ticketId, ...input }) => {
    const { db } = ctx.database;
    const { ticket, access } = await loadTicket(db, actor, ticketId);
    const writer = policyActorOf(actor, access);
    authorizeTicket(writer, "tickets.move");
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
      // One event: the card as it now reads; moved to another list, where from and by whom (what outgoing
      // webhooks tell, modules/integrations) — a reorder within one list is not a move.
      await recordTicketEvent(tx, {
        type: "ticket.changed",
        projectId: ticket.projectId,
        states: [await ticketState(tx, ticket.id)],
        ...(current.listId !== input.listId && {
          moved: { fromListId: current.listId, toListId: input.listId },
          actor: { userId: actor.user.id },
        }),
      });
    });
    return { data: withTicketAbilities(writer, await ticketNow(db, ticket.id)) };
  },
);

export const triageReport = operation(
  "tickets.triage",
  withParams(ticketParams, triageTicketSchema),
  async (ctx, actor: Actor, { ticketId, ...input }) => {
    const { db } = ctx.database;
    const { ticket, access } = await loadTicket(db, actor, ticketId);
    const writer = policyActorOf(actor, access);
    authorizeTicket(writer, "tickets.triage");
    await db.transaction((tx) => triageTicket(tx, ticket, input, ctx.config.plansEnabled));
    return { data: withTicketAbilities(writer, await ticketNow(db, ticket.id)) };
  },
);

export const deleteTicket = operation(
  "tickets.delete",
  ticketParams,
  async (ctx: LoggedContext, actor: Actor, { ticketId }) => {
    const { db } = ctx.database;
    const { ticket, access } = await loadTicket(db, actor, ticketId);
    authorizeTicket(policyActorOf(actor, access), "tickets.delete");
    const files = await db.transaction(async (tx) => {
      const released = await releaseTicketFiles(tx, [ticket.id], () =>
        tx.delete(tickets).where(eq(tickets.id, ticket.id)),
      );
      await recordTicketDeleted(tx, ticket.projectId, ticket.id);
      return released;
    });
    await removeReleasedFiles(ctx, files, ctx.log);
    return { data: { deleted: true } };
  },
);
