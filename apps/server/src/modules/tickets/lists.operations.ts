/**
 * A board's lists, the writes (SPEC §3 Browse list; lib/operations.ts). Lists are ordered by fractional
 * keys: creating one appends it, moving one between two neighbours writes only its own row. Deleting a
 * list deletes its tickets (and their files).
 */
import { createListSchema, DEFAULT_LIST_TITLE, sortKeyBetween, updateListSchema } from "@redline/shared";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { browseLists, projects, tickets } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { type LoggedContext, operation, withParams } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import type { Actor } from "../auth/session.ts";
import { removeReleasedFiles } from "../files/stored-files.ts";
import { loadBoardProject, loadList } from "./tickets.load.ts";
import { authorizeTicket, withListAbilities } from "./tickets.policy.ts";
import { presentList } from "./tickets.presenter.ts";
import { bytewise, recordListChanged, releaseTicketFiles } from "./tickets.service.ts";

export const boardParams = z.object({ projectId: z.string().min(1).max(64) });
export const listParams = z.object({ listId: z.string().min(1).max(64) });

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

export const createList = operation(
  "lists.create",
  withParams(boardParams, createListSchema),
  async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const { project, access } = await loadBoardProject(db, actor, input.projectId);
    const writer = policyActorOf(actor, access);
    authorizeTicket(writer, "lists.create");
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
      await recordListChanged(tx, project.id, row!.id, row);
      return row!;
    });
    return { data: withListAbilities(writer, presentList(list)) };
  },
);

export const updateList = operation(
  "lists.update",
  withParams(listParams, updateListSchema),
  async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const { list, access } = await loadList(db, actor, input.listId);
    const writer = policyActorOf(actor, access);
    authorizeTicket(writer, "lists.update");
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
      await recordListChanged(tx, list.projectId, list.id, row);
      return row!;
    });
    return { data: withListAbilities(writer, presentList(updated)) };
  },
);

export const deleteList = operation(
  "lists.delete",
  listParams,
  async (ctx: LoggedContext, actor: Actor, { listId }) => {
    const { db } = ctx.database;
    const { list, access } = await loadList(db, actor, listId);
    authorizeTicket(policyActorOf(actor, access), "lists.delete");
    const files = await db.transaction(async (tx) => {
      const listed = await tx.select({ id: tickets.id }).from(tickets).where(eq(tickets.listId, list.id));
      const released = await releaseTicketFiles(
        tx,
        listed.map((ticket) => ticket.id),
        () => tx.delete(browseLists).where(eq(browseLists.id, list.id)),
      );
      await recordListChanged(tx, list.projectId, list.id);
      return released;
    });
    await removeReleasedFiles(ctx, files, ctx.log);
    return { data: { deleted: true } };
  },
);
