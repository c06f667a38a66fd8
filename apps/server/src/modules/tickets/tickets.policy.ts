/**
 * Who may do what on a bug-tracking board: its lists, tickets and their threads. Project access decides
 * it — readers (view) read; contributors (owner, edit, comment) reply and attach; editors (owner, edit,
 * and the team's people who edit) run the board: lists, tickets, assignment, resolution, triage. An entry's
 * author edits it, and deletes it like an editor may. Guests of a public link have no board (404). An
 * expired project reaches this table as view access (projects.load.ts), so it is read-only.
 */
import {
  type BoardAbilities,
  type BrowseList,
  SHARING_MESSAGES,
  type Ticket,
  type TicketDetail,
} from "@redline/shared";
import {
  allows,
  authorizeWith,
  CONTRIBUTORS,
  EDITORS,
  EVERY_ACCESS,
  notAccessible,
  type PolicyActor,
  type PolicyTable,
} from "../../lib/policy.ts";
import { discussionSubject, entryAbilities, isEntryAuthor } from "../discussion/discussion.ts";

export type TicketAction =
  | "tickets.read"
  | "tickets.create"
  | "tickets.update"
  | "tickets.move"
  | "tickets.assign"
  | "tickets.resolve"
  | "tickets.triage"
  | "tickets.delete"
  | "tickets.reply"
  | "tickets.attach"
  | "ticketEntries.edit"
  | "ticketEntries.delete"
  | "lists.create"
  | "lists.update"
  | "lists.delete"
  /** The widget's key and allowed origins (its routes live with the widget). */
  | "widget.manage";

/** The entry a `ticketEntries.*` action is about (its author); other actions need nothing more. */
export interface TicketTarget {
  authorId?: string | null;
}

export const TICKET_POLICY: PolicyTable<TicketAction, TicketTarget> = {
  "tickets.read": [{ access: EVERY_ACCESS }],
  "tickets.create": [{ access: EDITORS }],
  "tickets.update": [{ access: EDITORS }],
  "tickets.move": [{ access: EDITORS }],
  "tickets.assign": [{ access: EDITORS }],
  "tickets.resolve": [{ access: EDITORS }],
  "tickets.triage": [{ access: EDITORS }],
  "tickets.delete": [{ access: EDITORS }],
  "tickets.reply": [{ access: CONTRIBUTORS }],
  "tickets.attach": [{ access: CONTRIBUTORS }],
  // An author still able to write (a viewer — or anyone on an expired project — writes nothing).
  "ticketEntries.edit": [{ access: CONTRIBUTORS, when: isEntryAuthor }],
  "ticketEntries.delete": [{ access: EDITORS }, { access: CONTRIBUTORS, when: isEntryAuthor }],
  "lists.create": [{ access: EDITORS }],
  "lists.update": [{ access: EDITORS }],
  "lists.delete": [{ access: EDITORS }],
  "widget.manage": [{ access: EDITORS }],
};

export function canTicket(actor: PolicyActor, action: TicketAction, target: TicketTarget = {}): boolean {
  return allows(TICKET_POLICY, actor, action, target);
}

/** 404 when the actor may not read the board (outsiders, link guests), 403 when they may read but not do this. */
export function authorizeTicket(actor: PolicyActor, action: TicketAction, target: TicketTarget = {}): void {
  authorizeWith(
    TICKET_POLICY,
    {
      read: "tickets.read",
      notFound: notAccessible(SHARING_MESSAGES.notAccessible, "project-not-accessible"),
      forbidden: {
        "ticketEntries.edit": { message: "Only its author can edit an entry." },
        "ticketEntries.delete": { message: "Only its author or an editor can delete an entry." },
      },
    },
    actor,
    action,
    target,
  );
}

/** A ticket's thread as a discussion (modules/discussion): its actions in the table above. */
export const TICKET_DISCUSSION = discussionSubject(
  "ticket",
  {
    read: "tickets.read",
    write: "tickets.reply",
    attach: "tickets.attach",
    edit: "ticketEntries.edit",
    delete: "ticketEntries.delete",
  },
  { authorize: authorizeTicket, can: canTicket },
  (entry): TicketTarget => ({ authorId: entry?.authorId }),
);

export function withListAbilities(actor: PolicyActor, list: BrowseList): BrowseList {
  return {
    ...list,
    abilities: {
      rename: canTicket(actor, "lists.update"),
      move: canTicket(actor, "lists.update"),
      delete: canTicket(actor, "lists.delete"),
      addTicket: canTicket(actor, "tickets.create"),
    },
  };
}

/** The card (or the ticket with its thread) as this reader sees it. */
export function withTicketAbilities<T extends Ticket | TicketDetail>(actor: PolicyActor, ticket: T): T {
  const withAbilities: T = {
    ...ticket,
    abilities: {
      update: canTicket(actor, "tickets.update"),
      move: canTicket(actor, "tickets.move"),
      assign: canTicket(actor, "tickets.assign"),
      resolve: canTicket(actor, "tickets.resolve"),
      reply: canTicket(actor, "tickets.reply"),
      attach: canTicket(actor, "tickets.attach"),
      triage: canTicket(actor, "tickets.triage"),
      delete: canTicket(actor, "tickets.delete"),
    },
  };
  if (!("thread" in ticket)) return withAbilities;
  return {
    ...withAbilities,
    thread: ticket.thread.map((entry) => ({
      ...entry,
      abilities: entryAbilities(TICKET_DISCUSSION, actor, entry.userId),
    })),
  };
}

export function boardAbilities(actor: PolicyActor): BoardAbilities {
  return {
    createList: canTicket(actor, "lists.create"),
    createTicket: canTicket(actor, "tickets.create"),
    triage: canTicket(actor, "tickets.triage"),
    manageWidget: canTicket(actor, "widget.manage"),
  };
}
