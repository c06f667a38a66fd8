/**
 * Keeps an open board live: the project's room carries every ticket and list change (`tickets.changed`,
 * `tickets.deleted`, `lists.changed`), written into the cached board as it comes (board-cache.ts); a
 * (re)join refetches, since events sent while the socket was away are not replayed.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { realtime } from "../../lib/realtime.ts";
import { applyBoardEvent, resyncBoard } from "./board-cache.ts";

export function useBoardRealtime(projectId: string, enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || !projectId) return;
    return realtime().subscribe(projectId, {
      onEvent(event) {
        applyBoardEvent(queryClient, projectId, event);
      },
      onResync() {
        resyncBoard(queryClient, projectId);
      },
    });
  }, [projectId, enabled, queryClient]);
}
