/**
 * Server state of the messages area (TanStack Query, keys named after the API routes). A thread reads
 * from a source: a signed-in person's conversation (`/api/conversations/:id`) or a guest's own one
 * through the public link (`/api/share/:projectId/conversation`, with the guest's identity and key).
 * Neither polls: the realtime socket says when to refetch (use-conversations-realtime.ts for members,
 * use-guest-conversation-realtime.ts for guests).
 */
import {
  type Conversation,
  type ConversationAttachment,
  type ConversationMessage,
  type ConversationMessagesPage,
  GUEST_KEY_HEADER,
} from "@redline/shared";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { refetchFresh } from "../../lib/fresh-reads.ts";
import { guestKey } from "./guest-key.ts";

export const CONVERSATIONS_KEY = ["/api/conversations"] as const;
export const UNREAD_KEY = ["/api/conversations/unread"] as const;

export interface ThreadSource {
  base: string;
  headers?: Record<string, string>;
  key: readonly unknown[];
  /** A guest's conversation is made on their first message. */
  isGuest: boolean;
}

export const memberSource = (conversationId: string): ThreadSource => ({
  base: `/api/conversations/${conversationId}`,
  key: ["/api/conversations", conversationId],
  isGuest: false,
});

export const guestSource = (projectId: string, identity: string): ThreadSource => ({
  base: `/api/share/${projectId}/conversation`,
  headers: { "x-redline-guest": identity, [GUEST_KEY_HEADER]: guestKey() },
  key: ["/api/share", projectId, "conversation"],
  isGuest: true,
});

export function useConversations(enabled = true) {
  return useQuery({
    queryKey: CONVERSATIONS_KEY,
    queryFn: ({ signal }) =>
      api<{ data: Conversation[] }>("/api/conversations", { signal }).then((r) => r.data),
    enabled,
  });
}

export function useUnreadCount() {
  return useQuery({
    queryKey: UNREAD_KEY,
    queryFn: ({ signal }) =>
      api<{ data: { unread: number } }>("/api/conversations/unread", { signal }).then((r) => r.data.unread),
  });
}

export function useConversation(source: ThreadSource) {
  return useQuery({
    queryKey: source.key,
    queryFn: ({ signal }) =>
      api<{ data: Conversation | null }>(source.base, { signal, headers: source.headers }).then(
        (r) => r.data,
      ),
  });
}

export function useMessages(source: ThreadSource, enabled: boolean) {
  return useQuery({
    queryKey: [...source.key, "messages"],
    queryFn: ({ signal }) =>
      api<ConversationMessagesPage>(`${source.base}/messages`, { signal, headers: source.headers }),
    enabled,
  });
}

/** Everything the messages area shows follows a change: lists, counts, threads. */
export function refreshConversations(queryClient: QueryClient, conversationId?: string) {
  void refetchFresh(queryClient, { queryKey: CONVERSATIONS_KEY });
  void refetchFresh(queryClient, { queryKey: UNREAD_KEY });
  if (conversationId) void refetchFresh(queryClient, { queryKey: ["/api/conversations", conversationId] });
}

export function useSendMessage(source: ThreadSource) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ message, files }: { message: string; files: File[] }) => {
      // A guest's first message opens their conversation.
      if (source.isGuest) await api(source.base, { method: "POST", headers: source.headers });
      const attachments: ConversationAttachment[] = [];
      for (const file of files) {
        const form = new FormData();
        form.append("file", file, file.name);
        const uploaded = await api<{ data: ConversationAttachment }>(`${source.base}/attachments`, {
          method: "POST",
          body: form,
          headers: source.headers,
        });
        attachments.push(uploaded.data);
      }
      return api<{ data: ConversationMessage }>(`${source.base}/messages`, {
        method: "POST",
        body: { message, attachments },
        headers: source.headers,
      }).then((r) => r.data);
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: source.key });
      if (!source.isGuest) refreshConversations(queryClient);
    },
  });
}

export function useMarkRead(source: ThreadSource) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(`${source.base}/read`, { method: "POST", headers: source.headers }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: source.key, exact: true });
      if (!source.isGuest) refreshConversations(queryClient);
    },
  });
}

/** Downloads an attachment (a guest's request needs its headers, so not a plain link). */
export async function downloadAttachment(source: ThreadSource, attachment: ConversationAttachment) {
  const response = await fetch(
    `${source.base}/attachments/${attachment.id}?name=${encodeURIComponent(attachment.name)}`,
    { credentials: "same-origin", headers: source.headers },
  );
  if (!response.ok) throw new Error("The file could not be downloaded.");
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = attachment.name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function openSupportConversation(): Promise<Conversation> {
  return api<{ data: Conversation }>("/api/conversations/support", { method: "POST" }).then((r) => r.data);
}
