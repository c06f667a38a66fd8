/**
 * Lists, tickets and threads as the API answers them, with no one's abilities (the policy fills them in
 * per reader: routes, and the realtime fan-out for events). People are read once per answer from the
 * project's people (tickets.load.ts); anyone no longer among them shows as 'Deleted User'.
 */
import { createHash } from "node:crypto";
import {
  type BrowseList,
  type CommentAuthor,
  DELETED_USER_NAME,
  type Ticket,
  type TicketDetail,
  type TicketEntry,
  type TicketPerson,
} from "@redline/shared";
import { and, asc, eq, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { type BrowseListRow, type TicketEntryRow, ticketEntries, tickets } from "../../db/schema/index.ts";
import { together } from "../../db/together.ts";
import { presentEntry } from "../discussion/discussion.ts";
import { type BoardPerson, boardPeople } from "./tickets.load.ts";

const NO_TICKET_ABILITIES: Ticket["abilities"] = {
  update: false,
  move: false,
  assign: false,
  resolve: false,
  reply: false,
  attach: false,
  triage: false,
  delete: false,
};
const NO_LIST_ABILITIES: BrowseList["abilities"] = {
  rename: false,
  move: false,
  delete: false,
  addTicket: false,
};

/** A ticket row with its number of entries beyond the first (SPEC §3: the card's comment count). */
export const countedTicket = {
  ...getTableColumns(tickets),
  // Qualified by hand: Drizzle leaves column names bare in a one-table select.
  commentCount: sql<number>`(select greatest(count(*) - 1, 0) from "ticket_entries" where "ticket_entries"."ticket_id" = "tickets"."id")::int`,
};
export type CountedTicketRow = typeof tickets.$inferSelect & { commentCount: number };

export function selectCountedTickets(db: Database, where: SQL | undefined) {
  // Order keys compare as bytes (fractional-indexing's digits), whatever the database's collation.
  return db
    .select(countedTicket)
    .from(tickets)
    .where(where)
    .orderBy(asc(sql`${tickets.sortKey} collate "C"`), asc(tickets.id));
}

const DELETED_PERSON: TicketPerson = {
  uid: null,
  displayName: DELETED_USER_NAME,
  photoURL: null,
  isGuest: false,
};

export function personOf(userId: string, people: Map<string, BoardPerson>): TicketPerson {
  const person = people.get(userId);
  return person
    ? { uid: person.id, displayName: person.displayName, photoURL: person.photoURL, isGuest: false }
    : DELETED_PERSON;
}

/** The screenshot's address changes with its file, so a browser may cache it for good. */
export const screenshotUrlOf = (ticketId: string, key: string | null) =>
  key
    ? `/api/tickets/${ticketId}/screenshot?v=${createHash("sha256").update(key).digest("hex").slice(0, 16)}`
    : null;

export function presentList(row: BrowseListRow): BrowseList {
  return {
    id: row.id,
    projectId: row.projectId,
    title: row.title,
    sortKey: row.sortKey,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    abilities: NO_LIST_ABILITIES,
  };
}

export function presentTicketRow(row: CountedTicketRow, people: Map<string, BoardPerson>): Ticket {
  return {
    id: row.id,
    projectId: row.projectId,
    number: row.number,
    listId: row.listId,
    sortKey: row.sortKey,
    intake: row.intake,
    duplicateOf: row.duplicateOf,
    title: row.title,
    description: row.description,
    isResolved: row.isResolved,
    resolvedBy: row.resolvedBy,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    assignedTo: row.assignedTo,
    assignee: row.assignedTo ? personOf(row.assignedTo, people) : null,
    dueDate: row.dueDate,
    reporter: row.reporterId
      ? personOf(row.reporterId, people)
      : { uid: null, displayName: row.reporterName ?? "Anonymous", photoURL: null, isGuest: true },
    screenshotUrl: screenshotUrlOf(row.id, row.screenshotKey),
    hasReplay: row.replayKey !== null,
    report: row.report,
    target: row.target,
    commentCount: row.commentCount,
    createdAt: row.createdAt.toISOString(),
    modifiedAt: row.modifiedAt.toISOString(),
    abilities: NO_TICKET_ABILITIES,
  };
}

function authorOf(entry: TicketEntryRow, people: Map<string, BoardPerson>): CommentAuthor {
  if (entry.userId) return personOf(entry.userId, people);
  return { uid: null, displayName: entry.guestName ?? "Anonymous", photoURL: null, isGuest: true };
}

export const presentTicketEntry = (entry: TicketEntryRow, people: Map<string, BoardPerson>): TicketEntry =>
  presentEntry(entry, authorOf(entry, people), `/api/tickets/${entry.ticketId}/entries/${entry.id}`);

/** One ticket as a card (`people` when the caller has them already), or null when it is gone. */
export async function presentTicket(
  db: Database,
  ticketId: string,
  people?: Map<string, BoardPerson>,
): Promise<Ticket | null> {
  const [row] = await selectCountedTickets(db, eq(tickets.id, ticketId));
  if (!row) return null;
  return presentTicketRow(row, people ?? (await boardPeople(db, row.projectId)));
}

/** A ticket with its thread, oldest entry first. */
export async function presentTicketDetail(db: Database, ticketId: string): Promise<TicketDetail | null> {
  const [row] = await selectCountedTickets(db, eq(tickets.id, ticketId));
  if (!row) return null;
  const [people, entries] = await together(db, [
    () => boardPeople(db, row.projectId),
    () => threadOf(db, [ticketId]),
  ]);
  return {
    ...presentTicketRow(row, people),
    thread: entries.map((entry) => presentTicketEntry(entry, people)),
  };
}

export function threadOf(db: Database, ticketIds: string[]) {
  return db
    .select()
    .from(ticketEntries)
    .where(and(inArray(ticketEntries.ticketId, ticketIds)))
    .orderBy(asc(ticketEntries.createdAt), asc(ticketEntries.id));
}
