/**
 * The board and its lists over HTTP (SPEC §3 Browse list): the board is read here; adding, renaming,
 * moving and deleting a list are operations (lists.operations.ts).
 */
import {
  type Board,
  type BoardFilter,
  boardFilterSchema,
  boardItemDeletedSchema,
  boardSchema,
  browseListSchema,
  createListSchema,
  dataAnswer,
  updateListSchema,
} from "@redline/shared";
import { and, asc, eq, ilike, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { browseLists, tickets, users } from "../../db/schema/index.ts";
import { requestInput } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { boardParams, createList, deleteList, updateList } from "./lists.operations.ts";
import { boardPeople, loadBoardProject } from "./tickets.load.ts";
import { authorizeTicket, boardAbilities, withListAbilities, withTicketAbilities } from "./tickets.policy.ts";
import { personOf, presentList, presentTicketRow, selectCountedTickets } from "./tickets.presenter.ts";
import { bytewise, onBoard, ticketLimitOf, ticketsUsed } from "./tickets.service.ts";

const projectParams = boardParams;

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The filters of GET board as conditions on tickets (lists are always all shown). */
function ticketFilters(filter: BoardFilter, now = Date.now()): SQL[] {
  const conditions: SQL[] = [];
  if (filter.assignee) conditions.push(eq(tickets.assignedTo, filter.assignee));
  if (filter.reporter) conditions.push(eq(tickets.reporterId, filter.reporter));
  if (filter.resolved) conditions.push(eq(tickets.isResolved, filter.resolved === "true"));
  const today = isoDay(now);
  if (filter.due === "none") conditions.push(isNull(tickets.dueDate));
  if (filter.due === "overdue")
    conditions.push(and(lt(tickets.dueDate, today), eq(tickets.isResolved, false))!);
  if (filter.due === "week")
    conditions.push(sql`${tickets.dueDate} between ${today} and ${isoDay(now + 7 * DAY_MS)}`);
  const q = filter.q?.trim();
  if (q) {
    const pattern = `%${q.replace(/[%_\\]/g, "\\$&")}%`;
    const number = /^#?(\d{1,9})$/.exec(q)?.[1];
    conditions.push(
      or(
        ilike(tickets.title, pattern),
        ilike(tickets.description, pattern),
        ...(number ? [eq(tickets.number, Number(number))] : []),
      )!,
    );
  }
  return conditions;
}

export async function listsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.get(
    "/api/projects/:projectId/board",
    route({
      summary: "A bug-tracking board: lists, tickets, assignees",
      query: boardFilterSchema,
      action: "tickets.read",
      response: dataAnswer(boardSchema),
    }),
    async (request): Promise<{ data: Board }> => {
      const actor = await requireActor(request);
      const { project, access } = await loadBoardProject(
        db,
        actor,
        projectParams.parse(request.params).projectId,
      );
      const reader = policyActorOf(actor, access);
      authorizeTicket(reader, "tickets.read");
      const filter = boardFilterSchema.parse(request.query ?? {});
      const [listRows, ticketRows, people, [owner], used] = await Promise.all([
        db
          .select()
          .from(browseLists)
          .where(eq(browseLists.projectId, project.id))
          .orderBy(asc(bytewise(browseLists.sortKey)), asc(browseLists.id)),
        selectCountedTickets(db, and(onBoard(project.id), ...ticketFilters(filter))),
        boardPeople(db, project.id),
        db.select().from(users).where(eq(users.id, project.ownerId)),
        ticketsUsed(db, project.id),
      ]);
      return {
        data: {
          projectId: project.id,
          lists: listRows.map((row) => withListAbilities(reader, presentList(row))),
          tickets: ticketRows.map((row) => withTicketAbilities(reader, presentTicketRow(row, people))),
          assignees: [...people.values()]
            .filter((person) => person.isAssignable)
            .map((person) => personOf(person.id, people))
            .sort((a, b) => a.displayName.localeCompare(b.displayName)),
          ticketLimit: { limit: ticketLimitOf(owner, ctx.config.plansEnabled), used },
          abilities: boardAbilities(reader),
        },
      };
    },
  );

  app.post(
    "/api/projects/:projectId/lists",
    route({
      summary: "Add a list at the end of the board",
      body: createListSchema,
      action: "lists.create",
      response: dataAnswer(browseListSchema),
    }),
    async (request, reply) => {
      const created = await createList(ctx, await requireActor(request), requestInput(request));
      reply.status(201);
      return created;
    },
  );

  app.patch(
    "/api/lists/:listId",
    route({
      summary: "Rename a list or move it between two others",
      body: updateListSchema,
      action: "lists.update",
      response: dataAnswer(browseListSchema),
    }),
    async (request) => updateList(ctx, await requireActor(request), requestInput(request)),
  );

  app.delete(
    "/api/lists/:listId",
    route({
      summary: "Delete a list and its tickets",
      action: "lists.delete",
      response: dataAnswer(boardItemDeletedSchema),
    }),
    async (request) =>
      deleteList({ ...ctx, log: request.log }, await requireActor(request), requestInput(request)),
  );
}
