/**
 * The board's server state (keys in board-cache.ts). Every answer carrying a ticket or list is written
 * straight into the cache; moves are shown at once and rolled back if refused. A ticket past the plan's
 * limit (402) opens the upgrade prompt.
 */
import {
  type Attachment,
  type Board,
  type BrowseList,
  deletingEntryDeletesTicket,
  type Ticket,
  type TicketDetail,
  type TriageTicketInput,
  type VideoInput,
} from "@redline/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { snackbar } from "../../components/snackbar-store.ts";
import { showPlanRefusal } from "../../components/upgrade-prompt-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { boardKey, removeList, removeTicket, ticketKey, upsertList, upsertTicket } from "./board-cache.ts";

const enc = encodeURIComponent;

function showError(error: unknown): void {
  if (!showPlanRefusal(error)) snackbar.error(errorMessage(error));
}

export function useBoard(projectId: string) {
  return useQuery({
    queryKey: boardKey(projectId),
    queryFn: async ({ signal }) =>
      (await api<{ data: Board }>(`/api/projects/${enc(projectId)}/board`, { signal })).data,
  });
}

/** A ticket with its thread; `null` once it was deleted while open. */
export function useTicket(ticketId: string | null) {
  return useQuery({
    queryKey: ticketKey(ticketId ?? ""),
    queryFn: async ({ signal }) =>
      (await api<{ data: TicketDetail }>(`/api/tickets/${enc(ticketId ?? "")}`, { signal }))
        .data as TicketDetail | null,
    enabled: Boolean(ticketId),
  });
}

// ---- Lists ---------------------------------------------------------------------------------------

export function useCreateList(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (title?: string) =>
      api<{ data: BrowseList }>(`/api/projects/${enc(projectId)}/lists`, {
        method: "POST",
        body: title ? { title } : {},
      }),
    onSuccess: ({ data }) => upsertList(queryClient, data),
    onError: showError,
  });
}

export function useRenameList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ list, title }: { list: BrowseList; title: string }) =>
      api<{ data: BrowseList }>(`/api/lists/${enc(list.id)}`, { method: "PATCH", body: { title } }),
    onMutate: ({ list, title }) => upsertList(queryClient, { ...list, title }),
    onSuccess: ({ data }) => upsertList(queryClient, data),
    onError: (error, { list }) => {
      upsertList(queryClient, list);
      showError(error);
    },
  });
}

export interface ListMove {
  list: BrowseList;
  afterId: string | null;
  beforeId: string | null;
  sortKey: string;
}

export function useMoveList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ list, afterId, beforeId }: ListMove) =>
      api<{ data: BrowseList }>(`/api/lists/${enc(list.id)}`, {
        method: "PATCH",
        body: { move: { afterId, beforeId } },
      }),
    onMutate: ({ list, sortKey }) => upsertList(queryClient, { ...list, sortKey }),
    onSuccess: ({ data }) => upsertList(queryClient, data),
    onError: (error, { list }) => {
      upsertList(queryClient, list);
      showError(error);
    },
  });
}

export function useDeleteList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (list: BrowseList) => api<unknown>(`/api/lists/${enc(list.id)}`, { method: "DELETE" }),
    onSuccess: (_answer, list) => removeList(queryClient, list.projectId, list.id),
    onError: showError,
  });
}

// ---- Tickets -------------------------------------------------------------------------------------

export function useCreateTicket(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { listId: string; title: string; description?: string }) =>
      api<{ data: Ticket }>(`/api/projects/${enc(projectId)}/tickets`, { method: "POST", body: input }),
    onSuccess: ({ data }) => upsertTicket(queryClient, data),
    // The 21st ticket of a free project: the upgrade prompt says why.
    onError: showError,
  });
}

export type TicketUpdate = Partial<
  Pick<Ticket, "title" | "description" | "assignedTo" | "dueDate" | "isResolved">
>;

export function useUpdateTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticket, update }: { ticket: Ticket; update: TicketUpdate }) =>
      api<{ data: Ticket }>(`/api/tickets/${enc(ticket.id)}`, { method: "PATCH", body: update }),
    onSuccess: ({ data }) => upsertTicket(queryClient, data),
    onError: showError,
  });
}

export interface TicketMove {
  ticket: Ticket;
  listId: string;
  afterId: string | null;
  beforeId: string | null;
  sortKey: string;
}

/** One request per move; the card is where it was dropped at once, and back where it was if refused. */
export function useMoveTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticket, listId, afterId, beforeId }: TicketMove) =>
      api<{ data: Ticket }>(`/api/tickets/${enc(ticket.id)}/move`, {
        method: "POST",
        body: { listId, afterId, beforeId },
      }),
    onMutate: ({ ticket, listId, sortKey }) => upsertTicket(queryClient, { ...ticket, listId, sortKey }),
    onSuccess: ({ data }) => upsertTicket(queryClient, data),
    onError: (error, { ticket }) => {
      upsertTicket(queryClient, ticket);
      showError(error);
    },
  });
}

export function useTriageTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticket, input }: { ticket: Ticket; input: TriageTicketInput }) =>
      api<{ data: Ticket }>(`/api/tickets/${enc(ticket.id)}/triage`, { method: "POST", body: input }),
    onSuccess: ({ data }, { input }) => {
      upsertTicket(queryClient, data);
      snackbar.success(
        input.action === "accept"
          ? "Report accepted."
          : input.action === "duplicate"
            ? "Report merged into the other ticket."
            : "Report rejected.",
      );
    },
    onError: showError,
  });
}

export function useDeleteTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ticket: Ticket) => api<unknown>(`/api/tickets/${enc(ticket.id)}`, { method: "DELETE" }),
    onSuccess: (_answer, ticket) => {
      removeTicket(queryClient, ticket.projectId, ticket.id);
      snackbar.success("Ticket deleted.");
    },
    onError: showError,
  });
}

// ---- The thread ----------------------------------------------------------------------------------

/** Entry writes answer with the ticket (and its thread) or the entry: either way the detail is current. */
function useEntryWrite<Input>(ticket: Ticket, write: (input: Input) => Promise<{ data?: unknown }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: ({ data }) => {
      if (data && typeof data === "object" && "thread" in data)
        upsertTicket(queryClient, data as TicketDetail);
      else void queryClient.invalidateQueries({ queryKey: ticketKey(ticket.id) });
    },
    onError: showError,
  });
}

export function useAddEntry(ticket: Ticket) {
  return useEntryWrite(ticket, (input: { comment: string; attachments: Attachment[]; video?: VideoInput }) =>
    api<{ data?: unknown }>(`/api/tickets/${enc(ticket.id)}/entries`, { method: "POST", body: input }),
  );
}

export function useEditEntry(ticket: Ticket) {
  return useEntryWrite(ticket, ({ entryId, comment }: { entryId: string; comment: string }) =>
    api<{ data?: unknown }>(`/api/tickets/${enc(ticket.id)}/entries/${enc(entryId)}`, {
      method: "PATCH",
      body: { comment },
    }),
  );
}

/** SPEC §4: deleting the only entry deletes the ticket; otherwise only that entry goes. */
export function useDeleteEntry(ticket: TicketDetail) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entryId: string) =>
      api<{ data?: { ticketDeleted?: boolean } } | undefined>(
        `/api/tickets/${enc(ticket.id)}/entries/${enc(entryId)}`,
        { method: "DELETE" },
      ),
    onSuccess: (answer) => {
      const ticketDeleted = answer?.data?.ticketDeleted ?? deletingEntryDeletesTicket(ticket.thread.length);
      if (ticketDeleted) {
        removeTicket(queryClient, ticket.projectId, ticket.id);
        snackbar.success("Ticket deleted.");
      } else void queryClient.invalidateQueries({ queryKey: ticketKey(ticket.id) });
    },
    onError: showError,
  });
}
