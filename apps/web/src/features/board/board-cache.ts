/**
 * Writing tickets and lists into the cached board (and an open ticket's detail) — from responses, from
 * the optimistic move, and from realtime events — so every tab shows a change without asking again.
 * Keys follow the API routes: ['api', 'projects', id, 'board'] is GET /api/projects/{id}/board, and
 * ['api', 'tickets', id] is GET /api/tickets/{id}.
 */
import type { Board, BrowseList, RealtimeEvent, Ticket, TicketDetail } from "@redline/shared";
import type { QueryClient } from "@tanstack/react-query";
import { refetchFresh, restartReads } from "../../lib/fresh-reads.ts";

export const boardKey = (projectId: string) => ["api", "projects", projectId, "board"] as const;
export const ticketKey = (ticketId: string) => ["api", "tickets", ticketId] as const;
export const TICKETS_KEY = ["api", "tickets"] as const;

/** Rejected and merged reports leave the board (GET board lists neither). */
export function isOnBoard(ticket: Pick<Ticket, "intake">): boolean {
  return ticket.intake === "triage" || ticket.intake === "accepted";
}

export function withTicket(board: Board, ticket: Ticket): Board {
  const rest = board.tickets.filter((entry) => entry.id !== ticket.id);
  if (!isOnBoard(ticket)) return rest.length === board.tickets.length ? board : { ...board, tickets: rest };
  const index = board.tickets.findIndex((entry) => entry.id === ticket.id);
  if (index < 0) return { ...board, tickets: [...board.tickets, ticket] };
  const tickets = board.tickets.slice();
  tickets[index] = ticket;
  return { ...board, tickets };
}

export function withoutTicket(board: Board, ticketId: string): Board {
  if (!board.tickets.some((entry) => entry.id === ticketId)) return board;
  return { ...board, tickets: board.tickets.filter((entry) => entry.id !== ticketId) };
}

export function withList(board: Board, list: BrowseList): Board {
  const index = board.lists.findIndex((entry) => entry.id === list.id);
  if (index < 0) return { ...board, lists: [...board.lists, list] };
  const lists = board.lists.slice();
  lists[index] = list;
  return { ...board, lists };
}

/** A deleted list takes its tickets with it (SPEC §4, the server deletes them too). */
export function withoutList(board: Board, listId: string): Board {
  return {
    ...board,
    lists: board.lists.filter((entry) => entry.id !== listId),
    tickets: board.tickets.filter((entry) => entry.listId !== listId),
  };
}

function updateBoard(queryClient: QueryClient, projectId: string, change: (board: Board) => Board): void {
  queryClient.setQueryData<Board>(boardKey(projectId), (board) => (board ? change(board) : board));
}

/**
 * A ticket as it now reads, into the board and into its open detail (whose thread stays; when the card's
 * comment count says the thread changed, or the thread waits on a video being processed — the server tells
 * the card when it is done — the detail is read again).
 */
export function upsertTicket(queryClient: QueryClient, ticket: Ticket): void {
  updateBoard(queryClient, ticket.projectId, (board) => withTicket(board, ticket));
  const detail = queryClient.getQueryData<TicketDetail>(ticketKey(ticket.id));
  if (!detail) return;
  const thread = "thread" in ticket ? (ticket as TicketDetail).thread : detail.thread;
  queryClient.setQueryData<TicketDetail>(ticketKey(ticket.id), { ...ticket, thread });
  const processing = detail.thread.some((entry) => entry.videoStatus === "processing");
  if (!("thread" in ticket) && (processing || ticket.commentCount !== Math.max(0, detail.thread.length - 1)))
    void queryClient.invalidateQueries({ queryKey: ticketKey(ticket.id) });
}

export function removeTicket(queryClient: QueryClient, projectId: string, ticketId: string): void {
  updateBoard(queryClient, projectId, (board) => withoutTicket(board, ticketId));
  queryClient.setQueryData(ticketKey(ticketId), null);
}

export function upsertList(queryClient: QueryClient, list: BrowseList): void {
  updateBoard(queryClient, list.projectId, (board) => withList(board, list));
}

export function removeList(queryClient: QueryClient, projectId: string, listId: string): void {
  updateBoard(queryClient, projectId, (board) => withoutList(board, listId));
}

/**
 * One realtime event of the project's room into the cache. Events that carry what changed are written
 * as they are (no request); those too large to carry it refetch the board (and that ticket).
 */
export function applyBoardEvent(queryClient: QueryClient, projectId: string, event: RealtimeEvent): void {
  if (event.type === "tickets.changed") {
    if (event.ticket) upsertTicket(queryClient, event.ticket);
    else {
      void refetchFresh(queryClient, { queryKey: boardKey(projectId) });
      void refetchFresh(queryClient, { queryKey: ticketKey(event.ticketId) });
      return;
    }
  } else if (event.type === "tickets.deleted") {
    removeTicket(queryClient, projectId, event.ticketId);
  } else if (event.type === "lists.changed") {
    if (event.list) upsertList(queryClient, event.list);
    else removeList(queryClient, projectId, event.listId);
  } else return;
  // A read of the board or of the ticket under way may answer with what was there before the event.
  void restartReads(queryClient, { queryKey: boardKey(projectId) });
  if (event.type === "tickets.changed" || event.type === "tickets.deleted")
    void restartReads(queryClient, { queryKey: ticketKey(event.ticketId) });
}

/** After the socket was away (events are not replayed): read the board and open tickets again. */
export function resyncBoard(queryClient: QueryClient, projectId: string): void {
  void refetchFresh(queryClient, { queryKey: boardKey(projectId) });
  void refetchFresh(queryClient, { queryKey: TICKETS_KEY });
}
