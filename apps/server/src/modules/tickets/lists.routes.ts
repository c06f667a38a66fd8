/**
 * The board and its lists (SPEC §3 Browse list). Lists are ordered by fractional keys: creating one
 * appends it, moving one between two neighbours writes only its own row. Deleting a list deletes its
 * tickets (and their files).
 */
import {
  type Board,
  type BoardFilter,
  boardFilterSchema,
  createListSchema,
  DEFAULT_LIST_TITLE,
  sortKeyBetween,
  updateListSchema,
} from "@redline/shared";
import { and, asc, desc, eq, ilike, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { browseLists, projects, tickets, users } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { memberActor } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { removeReleasedFiles } from "../files/stored-files.ts";
import { boardPeople, loadBoardProject, loadList } from "./tickets.load.ts";
import { authorizeTicket, boardAbilities, withListAbilities, withTicketAbilities } from "./tickets.policy.ts";
import { personOf, presentList, presentTicketRow, selectCountedTickets } from "./tickets.presenter.ts";
import {
  bytewise,
  onBoard,
  publishList,
  releaseTicketFiles,
  ticketLimitOf,
  ticketsUsed,
} from "./tickets.service.ts";

const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const listParams = z.object({ listId: z.string().min(1).max(64) });

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

async function endOfLists(tx: Database, projectId: string): Promise<string> {
  const [last] = await tx
    .select({ sortKey: browseLists.sortKey })
    .from(browseLists)
    .where(eq(browseLists.projectId, projectId))
    .orderBy(desc(bytewise(browseLists.sortKey)), desc(browseLists.id))
    .limit(1);
  return sortKeyBetween(last?.sortKey ?? null, null);
}

/** A neighbour of a moved list: a list of the same board, not the list itself. */
async function neighbourKey(tx: Database, projectId: string, listId: string, id: string | null) {
  if (id === null) return null;
  const [row] = await tx
    .select({ sortKey: browseLists.sortKey })
    .from(browseLists)
    .where(and(eq(browseLists.id, id), eq(browseLists.projectId, projectId)));
  if (!row || id === listId) throw new BadRequestError("No such list to move next to.", "bad-neighbour");
  return row.sortKey;
}

export async function listsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth } = ctx;
  const { db } = ctx.database;

  app.get(
    "/api/projects/:projectId/board",
    route({
      summary: "A bug-tracking board: lists, tickets, assignees",
      query: boardFilterSchema,
      action: "tickets.read",
    }),
    async (request): Promise<{ data: Board }> => {
      const actor = await requireActor(auth, db, request);
      const { project, access } = await loadBoardProject(
        db,
        actor,
        projectParams.parse(request.params).projectId,
      );
      const reader = memberActor(actor.user.id, access);
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
    route({ summary: "Add a list at the end of the board", body: createListSchema, action: "lists.create" }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const { project, access } = await loadBoardProject(
        db,
        actor,
        projectParams.parse(request.params).projectId,
      );
      const writer = memberActor(actor.user.id, access);
      authorizeTicket(writer, "lists.create");
      const input = createListSchema.parse(request.body ?? {});
      const list = await db.transaction(async (tx) => {
        // Two lists added at once both go to the end, one after the other.
        await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, project.id)).for("update");
        const [row] = await tx
          .insert(browseLists)
          .values({
            id: newId(),
            projectId: project.id,
            title: input.title || DEFAULT_LIST_TITLE,
            sortKey: await endOfLists(tx, project.id),
            createdBy: actor.user.id,
          })
          .returning();
        await publishList(tx, project.id, row!.id, row);
        return row!;
      });
      reply.status(201);
      return { data: withListAbilities(writer, presentList(list)) };
    },
  );

  app.patch(
    "/api/lists/:listId",
    route({
      summary: "Rename a list or move it between two others",
      body: updateListSchema,
      action: "lists.update",
    }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { list, access } = await loadList(db, actor, listParams.parse(request.params).listId);
      const writer = memberActor(actor.user.id, access);
      authorizeTicket(writer, "lists.update");
      const input = updateListSchema.parse(request.body);
      if (input.title === undefined && input.move === undefined)
        throw new BadRequestError("Give a title or a place to move to.", "nothing-to-change");
      const updated = await db.transaction(async (tx) => {
        const sortKey = input.move
          ? sortKeyBetween(
              await neighbourKey(tx, list.projectId, list.id, input.move.afterId),
              await neighbourKey(tx, list.projectId, list.id, input.move.beforeId),
            )
          : undefined;
        const [row] = await tx
          .update(browseLists)
          .set({ ...(input.title !== undefined && { title: input.title }), ...(sortKey && { sortKey }) })
          .where(eq(browseLists.id, list.id))
          .returning();
        await publishList(tx, list.projectId, list.id, row);
        return row!;
      });
      return { data: withListAbilities(writer, presentList(updated)) };
    },
  );

  app.delete(
    "/api/lists/:listId",
    route({ summary: "Delete a list and its tickets", action: "lists.delete" }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { list, access } = await loadList(db, actor, listParams.parse(request.params).listId);
      authorizeTicket(memberActor(actor.user.id, access), "lists.delete");
      const files = await db.transaction(async (tx) => {
        const listed = await tx.select({ id: tickets.id }).from(tickets).where(eq(tickets.listId, list.id));
        const released = await releaseTicketFiles(
          tx,
          listed.map((ticket) => ticket.id),
          () => tx.delete(browseLists).where(eq(browseLists.id, list.id)),
        );
        await publishList(tx, list.projectId, list.id);
        return released;
      });
      await removeReleasedFiles(ctx, files, request.log);
      return { data: { deleted: true } };
    },
  );
}
