/**
 * Keeps the comments of a project's open versions live: a new comment from the socket goes straight
 * into its version's list, other changes refetch that list, and a (re)join refetches them all.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { projectKey } from "../projects/project-queries.ts";
import { commentsKey, removeComment, upsertComment } from "./comment-queries.ts";
import { realtime } from "./realtime.ts";

export function useProjectRealtime(projectId: string, enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    return realtime().subscribe(projectId, {
      onEvent(event) {
        if (
          event.type !== "comments.created" &&
          event.type !== "comments.changed" &&
          event.type !== "comments.deleted"
        )
          return;
        const scope = { projectId, versionId: event.versionId };
        if (event.type === "comments.created" && event.comment) {
          upsertComment(queryClient, scope, event.comment);
        } else if (event.type === "comments.deleted") {
          removeComment(queryClient, scope, event.commentId);
        } else {
          void queryClient.invalidateQueries({ queryKey: commentsKey(scope) });
        }
        // Versions carry their number of comments.
        if (event.type !== "comments.changed")
          void queryClient.invalidateQueries({ queryKey: projectKey(projectId) });
      },
      onResync() {
        void queryClient.invalidateQueries({ queryKey: projectKey(projectId) });
        void queryClient.invalidateQueries({
          predicate: ({ queryKey }) =>
            queryKey[0] === "api" && queryKey[1] === "versions" && queryKey[3] === "comments",
        });
      },
    });
  }, [projectId, enabled, queryClient]);
}
