/**
 * Keeps the messages area live through the tab's one socket (lib/realtime.ts), in the user's own room:
 * a new message or a read in another tab refetches the lists, the header's count and that thread.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { realtime } from "../../lib/realtime.ts";
import { refreshConversations } from "./conversation-queries.ts";

export function useConversationsRealtime(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      realtime().subscribeUser({
        onEvent(event) {
          if (event.type === "conversations.message" || event.type === "conversations.read")
            refreshConversations(queryClient, event.conversationId);
        },
        onResync: () => refreshConversations(queryClient),
      }),
    [queryClient],
  );
}
