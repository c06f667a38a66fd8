/**
 * Keeps the comments of a project's open versions live: a new or changed comment from the socket goes
 * straight into its version's list (and its version's count), a deleted one out of it — no request; an
 * event too large to carry its comment refetches that list, and a (re)join refetches them all.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { refetchFresh, restartReads } from "../../lib/fresh-reads.ts";
import { realtime } from "../../lib/realtime.ts";
import { projectKey } from "../projects/project-queries.ts";
import { commentsKey, removeComment, slideCommentsScope, upsertComment } from "./comment-queries.ts";

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
        // A slide's comment goes into the project's slide comments, a page's into its version's.
        const scope = event.slideId
          ? slideCommentsScope(projectId)
          : { projectId, versionId: event.versionId ?? "" };
        // Events carry the comment as it now reads: it goes straight into the cache, no request.
        if (event.type === "comments.deleted") removeComment(queryClient, scope, event.commentId);
        else if (event.comment) upsertComment(queryClient, scope, event.comment);
        else {
          // Too large for an event (or a batch, like copied comments): refetch what changed.
          void refetchFresh(queryClient, { queryKey: commentsKey(scope) });
          if (event.type === "comments.created")
            void refetchFresh(queryClient, { queryKey: projectKey(projectId) });
          return;
        }
        // Reads of the list or of its count under way may answer with what was there before.
        void restartReads(queryClient, { queryKey: commentsKey(scope) });
        void restartReads(queryClient, { queryKey: projectKey(projectId), exact: true });
      },
      onResync() {
        void refetchFresh(queryClient, { queryKey: projectKey(projectId) });
        void refetchFresh(queryClient, {
          predicate: ({ queryKey }) =>
            queryKey[0] === "api" && queryKey[1] === "versions" && queryKey[3] === "comments",
        });
        void refetchFresh(queryClient, { queryKey: commentsKey(slideCommentsScope(projectId)) });
      },
    });
  }, [projectId, enabled, queryClient]);
}
