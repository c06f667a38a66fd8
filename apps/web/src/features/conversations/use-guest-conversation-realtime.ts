/**
 * Keeps a public link guest's messages live through the guest socket (lib/realtime.ts `guestRealtime()`):
 * once the guest has a conversation in the project, a new message or a read (another tab) refetches it —
 * its unread count — and its thread; a (re)joined socket refetches too, since nothing missed is replayed.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { refetchFresh } from "../../lib/fresh-reads.ts";
import { guestRealtime } from "../../lib/realtime.ts";
import type { ThreadSource } from "./conversation-queries.ts";
import { guestKey } from "./guest-key.ts";

export function useGuestConversationRealtime(
  projectId: string,
  source: ThreadSource,
  conversationId: string | null,
): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    // Before the guest's first message there is no conversation to follow (nobody can write to it).
    if (!conversationId) return;
    const refresh = () => void refetchFresh(queryClient, { queryKey: source.key });
    return guestRealtime().subscribeGuest(projectId, guestKey(), {
      onEvent(event) {
        if (
          (event.type === "conversations.message" || event.type === "conversations.read") &&
          event.conversationId === conversationId
        )
          refresh();
      },
      onResync: refresh,
    });
  }, [queryClient, projectId, source, conversationId]);
}
