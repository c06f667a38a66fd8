import type { MailboxMessage } from "@redline/shared";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

/** GET /api/dev/mailbox: the embedded outbox, newest first (absent in production). */
export function useMailbox() {
  return useQuery({
    queryKey: ["api", "dev", "mailbox"],
    queryFn: () => api<{ data: MailboxMessage[] }>("/api/dev/mailbox").then((body) => body.data),
    refetchInterval: 5000,
  });
}
