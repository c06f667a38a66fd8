/**
 * Keeps a version's suggested edits live: the socket says "changes of version X changed" and the list
 * is refetched; a (re)join refetches too, since events sent while away are not replayed.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { refetchFresh } from "../../lib/fresh-reads.ts";
import { realtime } from "../../lib/realtime.ts";
import { changesKey } from "./inspect-queries.ts";

export function useInspectRealtime(projectId: string, versionId: string, enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const refetch = () => void refetchFresh(queryClient, { queryKey: changesKey(versionId) });
    return realtime().subscribe(projectId, {
      onEvent(event) {
        if (event.type === "inspect.changed" && event.versionId === versionId) refetch();
      },
      onResync: refetch,
    });
  }, [projectId, versionId, enabled, queryClient]);
}
