/**
 * Ticket operations with more than one caller: creating a ticket (the board, and the widget's intake),
 * the ticket limit (SPEC §9), order keys, the cards' state every write records in its domain event
 * (tickets.events.ts), and the files a deleted ticket leaves behind.
 */
import {
  type Product,
  productOf,
  sortKeyBetween,
  type Ticket,
  type TicketDetail,
  type TicketReport,
  ticketTargetOf,
  UNLIMITED,
} from "@redline/shared";
import { and, count, desc, eq, inArray, isNull, max, type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import {
  type BrowseListRow,
  browseLists,
  type HolderKind,
  projects,
  type TicketRow,
  ticketEntries,
  tickets,
  type UserRow,
  users,
} from "../../db/schema/index.ts";
import { BadRequestError, ConflictError, NotFoundError, PlanLimitError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { releaseFilesOf } from "../files/stored-files.ts";
import { entitlementsFor } from "../plans/plans.ts";
import { meterStorage } from "../plans/storage.ts";
import { recordTicketEvent, type TicketState } from "./tickets.events.ts";
import { presentList, presentTicket, presentTicketDetail } from "./tickets.presenter.ts";

export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export class TicketLimitError extends PlanLimitError {
  constructor(limit: number, product: Product = "browse") {
    super("ticket-limit", `This project has reached its limit of ${limit} tickets. Upgrade to add more.`, {
      kind: "tickets",
      product,
      limit,
    });
  }
}

/** The tickets a project's limit counts: those on its board (in triage or a list), not rejected or merged. */
export const onBoard = (projectId: string): SQL =>
  and(eq(tickets.projectId, projectId), inArray(tickets.intake, ["triage", "accepted"]))!;

/** The owner's ticket limit per project (-1 unlimited, and always with plans off). */
export function ticketLimitOf(owner: Omit<UserRow, "limits"> | undefined, plansEnabled: boolean): number {
  if (!plansEnabled || !owner) return UNLIMITED;
  return entitlementsFor(owner, "browse", plansEnabled).tickets;
}

/** The board's ticket limit (its owner's plan) and the tickets it counts now. */
export async function boardLimit(
  tx: Database,
  project: { id: string; ownerId: string },
  plansEnabled: boolean,
): Promise<{ limit: number; used: number }> {
  const [owner] = await tx.select().from(users).where(eq(users.id, project.ownerId));
  const limit = ticketLimitOf(owner, plansEnabled);
  return { limit, used: limit === UNLIMITED ? 0 : await ticketsUsed(tx, project.id) };
}

export async function ticketsUsed(db: Database, projectId: string): Promise<number> {
  const [row] = await db.select({ used: count() }).from(tickets).where(onBoard(projectId));
  return row?.used ?? 0;
}

/** Order keys compare as bytes (fractional-indexing's digits), whatever the database's collation. */
export const bytewise = (column: typeof tickets.sortKey | typeof browseLists.sortKey) =>
  sql`${column} collate "C"`;

/** The key after the last card of a list, or of triage (`listId` null). */
export async function endOfList(tx: Database, projectId: string, listId: string | null): Promise<string> {
  const [last] = await tx
    .select({ sortKey: tickets.sortKey })
    .from(tickets)
    .where(
      and(
        eq(tickets.projectId, projectId),
        listId ? eq(tickets.listId, listId) : and(isNull(tickets.listId), eq(tickets.intake, "triage")),
      ),
    )
    .orderBy(desc(bytewise(tickets.sortKey)), desc(tickets.id))
    .limit(1);
  return sortKeyBetween(last?.sortKey ?? null, null);
}

/** The ticket row, locked until the write commits (two writes to one ticket go one after the other). */
export async function lockTicket(tx: Database, ticketId: string): Promise<TicketRow> {
  const [row] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for("update");
  if (!row) throw new ConflictError("The ticket was deleted meanwhile.", "ticket-gone");
  return row;
}

/** A list of this project, or 400 (an id from another board or none). */
export async function listOfProject(tx: Database, projectId: string, listId: string): Promise<BrowseListRow> {
  const [list] = await tx
    .select()
    .from(browseLists)
    .where(and(eq(browseLists.id, listId), eq(browseLists.projectId, projectId)));
  if (!list) throw new BadRequestError("No such list on this board.", "list-not-found");
  return list;
}

export interface CreateTicketInput {
  projectId: string;
  /** null: the ticket waits in triage. */
  listId: string | null;
  title: string;
  description?: string;
  /** The thread's first entry: the description, the reporter's note, or the title. */
  firstEntry: string;
  reporter: { userId: string } | { name: string; email: string };
  report?: TicketReport | null;
  screenshot?: { key: string; bytes: number } | null;
  replay?: { key: string; bytes: number } | null;
  /**
   * A widget report past the ticket limit is kept in triage all the same — its visitor cannot upgrade —
   * and the notification tells the project's people it is past the limit (accepting it waits for room).
   */
  keepsPastLimit?: boolean;
}

/**
 * Creates a ticket in one transaction under the project's row lock: the ticket limit (402 past it, except
 * for a widget report kept in triage: `keepsPastLimit`), the
 * next number, the end of its list (or of triage), the ticket and its first entry, the screenshot and
 * replay metered against the owner's storage, the `browse-ticket-add` notification and `tickets.changed`.
 * Answers the ticket with no one's abilities.
 */
export async function createTicket(ctx: AppContext, input: CreateTicketInput): Promise<Ticket> {
  const { db } = ctx.database;
  const { plansEnabled } = ctx.config;
  const ticketId = newId();
  const guest = "name" in input.reporter ? input.reporter : null;
  const userId = "userId" in input.reporter ? input.reporter.userId : null;
  await db.transaction(async (tx) => {
    const [project] = await tx
      .select({ id: projects.id, ownerId: projects.ownerId, type: projects.type })
      .from(projects)
      .where(eq(projects.id, input.projectId))
      .for("update");
    if (!project || productOf(project.type) !== "browse")
      throw new NotFoundError("This project has no board.", "board-not-found");
    const { limit, used } = await boardLimit(tx, project, plansEnabled);
    const isPastLimit = limit !== UNLIMITED && used >= limit;
    if (isPastLimit && !(input.keepsPastLimit && input.listId === null)) throw new TicketLimitError(limit);
    if (input.listId) await listOfProject(tx, project.id, input.listId);
    const [{ last } = { last: 0 }] = await tx
      .select({ last: max(tickets.number) })
      .from(tickets)
      .where(eq(tickets.projectId, project.id));
    const storage =
      input.screenshot || input.replay ? await meterStorage(tx, project.id, plansEnabled) : null;
    const now = new Date();
    await tx.insert(tickets).values({
      id: ticketId,
      projectId: project.id,
      number: (last ?? 0) + 1,
      listId: input.listId,
      sortKey: await endOfList(tx, project.id, input.listId),
      intake: input.listId ? "accepted" : "triage",
      title: input.title,
      description: input.description ?? "",
      reporterId: userId,
      reporterName: guest?.name ?? null,
      reporterEmail: guest?.email ?? null,
      report: input.report ?? null,
      target: ticketTargetOf(input.report ?? null),
      screenshotKey: input.screenshot?.key ?? null,
      screenshotBytes: input.screenshot?.bytes ?? null,
      replayKey: input.replay?.key ?? null,
      replayBytes: input.replay?.bytes ?? null,
      createdAt: now,
      modifiedAt: now,
    });
    await tx.insert(ticketEntries).values({
      id: newId(),
      ticketId,
      userId,
      guestName: guest?.name ?? null,
      body: input.firstEntry,
      createdAt: now,
    });
    await storage?.check();
    await tx.update(projects).set({ modifiedAt: now }).where(eq(projects.id, project.id));
    await recordTicketEvent(tx, {
      type: "ticket.created",
      actor: userId ? { userId } : { guestName: guest!.name },
      projectId: project.id,
      state: await ticketState(tx, ticketId),
      ...(isPastLimit && { pastLimit: limit }),
    });
  });
  return ticketNow(db, ticketId);
}

/** The ticket as it reads now (no one's abilities); 404 when it was deleted meanwhile. */
export async function ticketNow(db: Database, ticketId: string): Promise<Ticket> {
  const ticket = await presentTicket(db, ticketId);
  if (!ticket) throw new NotFoundError("Ticket not found.", "ticket-not-found");
  return ticket;
}

export async function ticketDetailNow(db: Database, ticketId: string): Promise<TicketDetail> {
  const ticket = await presentTicketDetail(db, ticketId);
  if (!ticket) throw new NotFoundError("Ticket not found.", "ticket-not-found");
  return ticket;
}

/** A card larger than this travels without its content: the event is read by every process's hub. */
const MAX_TICKET_PAYLOAD = 6000;

/** Inside the write's transaction, after the change: the card as it now reads (no one's abilities). */
export async function ticketState(tx: Tx, ticketId: string): Promise<TicketState> {
  const ticket = await presentTicket(tx, ticketId);
  if (!ticket) return { ticketId, isDeleted: true };
  return JSON.stringify(ticket).length <= MAX_TICKET_PAYLOAD ? { ticketId, ticket } : { ticketId };
}

/** Inside the write's transaction, after the change: its one event, with the cards as they now read. */
export async function recordTicketsChanged(tx: Tx, projectId: string, ...ticketIds: string[]): Promise<void> {
  const states: TicketState[] = [];
  for (const ticketId of ticketIds) states.push(await ticketState(tx, ticketId));
  await recordTicketEvent(tx, { type: "ticket.changed", projectId, states });
}

export function recordTicketDeleted(tx: Tx, projectId: string, ticketId: string): Promise<void> {
  return recordTicketEvent(tx, {
    type: "ticket.changed",
    projectId,
    states: [{ ticketId, isDeleted: true }],
  });
}

/** A list created, renamed or moved (`row`), or deleted (no row). */
export function recordListChanged(tx: Tx, projectId: string, listId: string, row?: BrowseListRow) {
  return recordTicketEvent(tx, {
    type: "list.changed",
    projectId,
    listId,
    ...(row && { list: presentList(row) }),
  });
}

/**
 * Runs `remove` (deleting tickets, or what they cascade from) and returns the files only those tickets
 * held — screenshot, replay, their entries' attachments — to remove after commit (files/stored-files.ts).
 */
/** The files a ticket's entry holds: its attachments, and its video with the video's poster. */
export const TICKET_ENTRY_FILES: HolderKind[] = ["ticket_attachment", "ticket_video", "ticket_video_poster"];

export async function releaseTicketFiles(
  tx: Database,
  ticketIds: string[],
  remove: () => Promise<unknown>,
): Promise<string[]> {
  const entries =
    ticketIds.length === 0
      ? []
      : await tx
          .select({ id: ticketEntries.id })
          .from(ticketEntries)
          .where(inArray(ticketEntries.ticketId, ticketIds));
  return releaseFilesOf(
    tx,
    [
      { kinds: ["ticket_screenshot", "ticket_replay"], ids: ticketIds },
      { kinds: TICKET_ENTRY_FILES, ids: entries.map((entry) => entry.id) },
    ],
    remove,
  );
}
