/** 'Need help?' (SPEC §2): opens the messages panel on the user's conversation with support. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { showSnackbar } from "../../components/snackbar-store.ts";
import { CONVERSATIONS_KEY, openSupportConversation } from "./conversation-queries.ts";
import { setMessagesPanel } from "./messages-store.ts";

export function useNeedHelp() {
  const queryClient = useQueryClient();
  const open = useMutation({
    mutationFn: openSupportConversation,
    onSuccess: async (conversation) => {
      await queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
      setMessagesPanel({ isOpen: true, conversationId: conversation.id });
    },
    onError: () => showSnackbar("error", "Support chat could not be opened. Try again."),
  });
  return () => open.mutate();
}
