/** Boards, lists and tickets for the board's tests, as the API presents them. */
import type { Board, BrowseList, Ticket, TicketAbilities } from "@redline/shared";

export const ALL_TICKET: TicketAbilities = {
  update: true,
  move: true,
  assign: true,
  resolve: true,
  reply: true,
  attach: true,
  triage: true,
  delete: true,
};
export const NO_TICKET: TicketAbilities = Object.fromEntries(
  Object.keys(ALL_TICKET).map((key) => [key, false]),
) as unknown as TicketAbilities;

export const list = (id: string, sortKey: string, fields: Partial<BrowseList> = {}): BrowseList => ({
  id,
  projectId: "p1",
  title: id.toUpperCase(),
  sortKey,
  createdAt: "2026-11-20T10:00:00.000Z",
  createdBy: "u1",
  abilities: { rename: true, move: true, delete: true, addTicket: true },
  ...fields,
});

let number = 0;
export const ticket = (id: string, fields: Partial<Ticket> = {}): Ticket => ({
  id,
  projectId: "p1",
  number: ++number,
  listId: "a",
  sortKey: "a0",
  intake: "accepted",
  duplicateOf: null,
  title: `Ticket ${id}`,
  description: "",
  isResolved: false,
  resolvedBy: null,
  resolvedAt: null,
  assignedTo: null,
  assignee: null,
  dueDate: null,
  reporter: { uid: "u1", displayName: "Ada Lovelace", photoURL: null, isGuest: false },
  screenshotUrl: null,
  hasReplay: false,
  report: null,
  target: null,
  commentCount: 0,
  createdAt: "2026-11-20T10:00:00.000Z",
  modifiedAt: "2026-11-20T10:00:00.000Z",
  abilities: ALL_TICKET,
  ...fields,
});

export const board = (fields: Partial<Board> = {}): Board => ({
  projectId: "p1",
  lists: [list("a", "a0"), list("b", "a1")],
  tickets: [],
  assignees: [
    { uid: "u1", displayName: "Ada Lovelace", photoURL: null, isGuest: false },
    { uid: "u2", displayName: "Grace Hopper", photoURL: null, isGuest: false },
  ],
  ticketLimit: { limit: -1, used: 0 },
  abilities: { createList: true, createTicket: true, triage: true, manageWidget: true },
  ...fields,
});
