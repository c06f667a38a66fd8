/**
 * The board's domain events (issue #28): each ticket or list write records one with `recordEvent` inside
 * its transaction, and this file says what follows from it — the project room hears of each card or list
 * as it now reads (each reader with their abilities), and who is notified (a new ticket: the project's
 * people; a reply: the people it mentions).
 */
import { type BrowseList, extractMentions, type Ticket } from "@redline/shared";
import type { Database } from "../../db/index.ts";
import type { LedgerEvent } from "../../lib/ledger.ts";
import { fanOut, readerView, recordEvent } from "../../lib/realtime.ts";
import { notifies, recipientRule } from "../notifications/notifications.rules.ts";
import { withListAbilities, withTicketAbilities } from "./tickets.policy.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** A card as it now reads (left out when too large: readers refetch), or gone. */
export interface TicketState {
  ticketId: string;
  ticket?: Ticket;
  isDeleted?: true;
}

export type TicketEvent =
  /** A ticket created on the board, or reported through its widget (`pastLimit`: kept past the limit). */
  | {
      type: "ticket.created";
      actor: { userId: string; guestName?: undefined } | { userId?: undefined; guestName: string };
      projectId: string;
      state: TicketState;
      pastLimit?: number;
    }
  /** A reply on a ticket's thread. */
  | { type: "ticket.replied"; actor: { userId: string }; projectId: string; state: TicketState; text: string }
  /** Cards changed or deleted by one write (a merge changes two); `moved`: a card put in another list. */
  | {
      type: "ticket.changed";
      projectId: string;
      states: TicketState[];
      moved?: { fromListId: string | null; toListId: string };
      actor?: { userId: string };
    }
  /** A list created, renamed or moved (`list`), or deleted. */
  | { type: "list.changed"; projectId: string; listId: string; list?: BrowseList };

export function recordTicketEvent(tx: Pick<Tx, "execute">, event: TicketEvent): Promise<void> {
  return recordEvent(tx, event);
}

type Of<T extends TicketEvent["type"]> = Extract<TicketEvent, { type: T }> & LedgerEvent;

const toRoom = (projectId: string, { ticketId, ticket, isDeleted }: TicketState) => ({
  room: `project:${projectId}` as const,
  event: isDeleted
    ? { type: "tickets.deleted" as const, projectId, ticketId }
    : { type: "tickets.changed" as const, projectId, ticketId, ...(ticket && { ticket }) },
});

fanOut<Of<"ticket.created">>("ticket.created", ({ projectId, state }) => [toRoom(projectId, state)]);
fanOut<Of<"ticket.replied">>("ticket.replied", ({ projectId, state }) => [toRoom(projectId, state)]);
fanOut<Of<"ticket.changed">>("ticket.changed", ({ projectId, states }) =>
  states.map((state) => toRoom(projectId, state)),
);
fanOut<Of<"list.changed">>("list.changed", ({ projectId, listId, list }) => [
  {
    room: `project:${projectId}`,
    event: { type: "lists.changed", projectId, listId, ...(list && { list }) },
  },
]);

readerView("tickets.changed", (event, reader) =>
  event.ticket ? { ...event, ticket: withTicketAbilities(reader, event.ticket) } : null,
);
readerView("lists.changed", (event, reader) =>
  event.list ? { ...event, list: withListAbilities(reader, event.list) } : null,
);

notifies<Of<"ticket.created">>("ticket.created", ({ actor, projectId, state, pastLimit }) => ({
  on: "ticket.created",
  actor,
  ticket: { id: state.ticketId, projectId },
  ...(pastLimit !== undefined && { pastLimit }),
}));
notifies<Of<"ticket.replied">>("ticket.replied", ({ actor, projectId, state, text }) => ({
  on: "ticket.replied",
  actor,
  ticket: { id: state.ticketId, projectId },
  text,
}));

recipientRule("ticket.created", (_tx, _about, people) =>
  [...people.keys()].map((userId) => ({ userId, type: "browse-ticket-add" })),
);
// SPEC §3 names no ticket-reply type: a mention is told as a mention in a reply.
recipientRule("ticket.replied", (_tx, { text }, people) =>
  extractMentions(text)
    .filter((uid) => people.has(uid))
    .map((userId) => ({ userId, type: "web-comment-reply-mention" })),
);
