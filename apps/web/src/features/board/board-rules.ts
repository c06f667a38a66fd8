/**
 * The board's pure rules on what the tab holds: order (fractional keys, then id), the columns, the
 * filters and search (the same rules as GET board's query), and where a dropped card or list goes —
 * its neighbours' ids for the one move request and the key shown before the answer.
 */
import {
  type Board,
  type BoardFilter,
  sortKeyBetween,
  type Ticket,
  type TicketPerson,
} from "@redline/shared";

/** Plain code-unit order, as fractional-indexing keys are compared (never localeCompare). */
export function bySortKey<T extends { sortKey: string; id: string }>(a: T, b: T): number {
  if (a.sortKey !== b.sortKey) return a.sortKey < b.sortKey ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Tickets in triage (widget reports not yet accepted): newest first. */
export function triageTickets(tickets: readonly Ticket[]): Ticket[] {
  return tickets
    .filter((ticket) => ticket.listId === null && ticket.intake === "triage")
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

/** Each list's tickets in board order (every list of the board has an entry, empty or not). */
export function ticketsByList(board: Pick<Board, "lists" | "tickets">): Map<string, Ticket[]> {
  const columns = new Map<string, Ticket[]>(board.lists.map((list) => [list.id, []]));
  for (const ticket of board.tickets) {
    if (ticket.listId !== null) columns.get(ticket.listId)?.push(ticket);
  }
  for (const column of columns.values()) column.sort(bySortKey);
  return columns;
}

/** Past this many tickets added or removed between two boards, the columns are made again from scratch. */
const INCREMENTAL_LIMIT = 64;

/**
 * The columns of `board`, made from the columns of the board before it when only a few tickets changed
 * (a move, an edit, a realtime event: the cache replaces one ticket) — the same columns as
 * `ticketsByList(board)`, without regrouping and sorting 10,000 tickets; a column no changed ticket
 * leaves or joins keeps its array.
 */
export function columnsAfter(
  before: { board: Pick<Board, "lists" | "tickets">; columns: Map<string, Ticket[]> } | null,
  board: Pick<Board, "lists" | "tickets">,
): Map<string, Ticket[]> {
  if (!before || before.board.lists !== board.lists) return ticketsByList(board);
  if (before.board.tickets === board.tickets) return before.columns;
  const held = new Set(before.board.tickets);
  const added = board.tickets.filter((ticket) => !held.has(ticket));
  const kept = board.tickets.length - added.length;
  let removed: Ticket[] = [];
  if (kept < before.board.tickets.length) {
    const now = new Set(board.tickets);
    removed = before.board.tickets.filter((ticket) => !now.has(ticket));
  }
  if (added.length + removed.length > INCREMENTAL_LIMIT) return ticketsByList(board);
  const columns = new Map(before.columns);
  const copied = new Set<string>();
  const columnOf = (listId: string | null): Ticket[] | undefined => {
    if (listId === null || !columns.has(listId)) return undefined;
    if (!copied.has(listId)) {
      copied.add(listId);
      columns.set(listId, columns.get(listId)!.slice());
    }
    return columns.get(listId);
  };
  for (const ticket of removed) {
    const column = columnOf(ticket.listId);
    const index = column?.indexOf(ticket) ?? -1;
    if (column && index >= 0) column.splice(index, 1);
  }
  for (const ticket of added) {
    const column = columnOf(ticket.listId);
    if (!column) continue;
    let low = 0;
    let high = column.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (bySortKey(column[middle]!, ticket) < 0) low = middle + 1;
      else high = middle;
    }
    column.splice(low, 0, ticket);
  }
  return columns;
}

/**
 * `next` with each column that holds the very same tickets as in `previous` kept as the previous array,
 * so one ticket changing re-renders one column, not the board (10,000 tickets stay cheap).
 */
export function keepUnchangedColumns(
  previous: Map<string, Ticket[]> | null,
  next: Map<string, Ticket[]>,
): Map<string, Ticket[]> {
  if (!previous) return next;
  for (const [listId, tickets] of next) {
    const before = previous.get(listId);
    if (
      before &&
      before.length === tickets.length &&
      before.every((ticket, index) => ticket === tickets[index])
    )
      next.set(listId, before);
  }
  return next;
}

// ---- Filters -------------------------------------------------------------------------------------

/** Filters as the board's controls hold them; `assignee: "none"` = unassigned. */
export type BoardFilters = Omit<BoardFilter, "q"> & { q?: string };

export const NO_FILTERS: BoardFilters = {};

export function hasFilters(filters: BoardFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined && value !== "");
}

/** A reporter's key in the reporter filter: their user id, or a guest's name. */
export function reporterKey(person: TicketPerson): string {
  return person.uid ?? `guest:${person.displayName}`;
}

/** A calendar day `YYYY-MM-DD` in the browser's time zone. */
export function localDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The calendar day `days` after `day` (both `YYYY-MM-DD`). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00`);
  date.setDate(date.getDate() + days);
  return localDay(date);
}

/** Past its due day and still open. */
export function isOverdue(ticket: Pick<Ticket, "dueDate" | "isResolved">, today: string): boolean {
  return ticket.dueDate !== null && !ticket.isResolved && ticket.dueDate < today;
}

export function matchesDue(
  ticket: Pick<Ticket, "dueDate" | "isResolved">,
  due: BoardFilter["due"],
  today: string,
): boolean {
  if (due === undefined) return true;
  if (due === "none") return ticket.dueDate === null;
  if (due === "overdue") return isOverdue(ticket, today);
  // "This week": due from today to a week from today (the same rule as GET board's `due=week`).
  return ticket.dueDate !== null && ticket.dueDate >= today && ticket.dueDate <= addDays(today, 7);
}

/** Search, as GET board's `q`: the text in the title or description, or the ticket's number (`#12`, `12`). */
export function matchesSearch(ticket: Pick<Ticket, "title" | "description" | "number">, q: string): boolean {
  const text = q.trim().toLowerCase();
  if (!text) return true;
  const number = /^#?(\d{1,9})$/.exec(text);
  if (number && Number(number[1]) === ticket.number) return true;
  return ticket.title.toLowerCase().includes(text) || ticket.description.toLowerCase().includes(text);
}

export function matchesFilters(ticket: Ticket, filters: BoardFilters, today: string): boolean {
  if (filters.assignee !== undefined) {
    const wanted = filters.assignee === "none" ? null : filters.assignee;
    if (ticket.assignedTo !== wanted) return false;
  }
  if (filters.reporter !== undefined && reporterKey(ticket.reporter) !== filters.reporter) return false;
  if (filters.resolved !== undefined && ticket.isResolved !== (filters.resolved === "true")) return false;
  if (!matchesDue(ticket, filters.due, today)) return false;
  return filters.q === undefined || matchesSearch(ticket, filters.q);
}

/** The distinct reporters of the board's tickets, by name, for the reporter filter. */
export function reportersOf(tickets: readonly Ticket[]): { key: string; person: TicketPerson }[] {
  const seen = new Map<string, TicketPerson>();
  for (const ticket of tickets) seen.set(reporterKey(ticket.reporter), ticket.reporter);
  return [...seen]
    .map(([key, person]) => ({ key, person }))
    .sort((a, b) => a.person.displayName.localeCompare(b.person.displayName));
}

// ---- Moves ---------------------------------------------------------------------------------------

export interface MovePlan {
  afterId: string | null;
  beforeId: string | null;
  /** The key the moved item gets at once (the server writes the same rule). */
  sortKey: string;
}

/**
 * Where an item lands in `order` (the target column as shown, the moved item already at `index`): its
 * neighbours' ids for the request and the key between their keys. Null when nothing moved.
 */
export function planMove<T extends { id: string; sortKey: string }>(
  order: readonly T[],
  movedId: string,
  original: { containerId: string | null; index: number },
  target: { containerId: string | null },
): MovePlan | null {
  const index = order.findIndex((item) => item.id === movedId);
  if (index < 0) return null;
  if (original.containerId === target.containerId && original.index === index) return null;
  const after = order[index - 1] ?? null;
  const before = order[index + 1] ?? null;
  return {
    afterId: after?.id ?? null,
    beforeId: before?.id ?? null,
    sortKey: sortKeyBetween(after?.sortKey ?? null, before?.sortKey ?? null),
  };
}

/** `items` with the one at `from` moved to `to` (dnd-kit's arrayMove, without the import in rules). */
export function moveInArray<T>(items: readonly T[], from: number, to: number): T[] {
  const next = items.slice();
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}
