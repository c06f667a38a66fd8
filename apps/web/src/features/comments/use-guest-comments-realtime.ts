/**
 * Keeps the comments a public link shows live for its guest, through the guest socket
 * (lib/realtime.ts `guestRealtime()`, topic "comments"), as `use-project-realtime.ts` does for members: a
 * new or changed comment goes straight into its version's list (presented for this guest by the server),
 * a deleted one out of it (a slide's into the deck's list) — no request; an event without its comment refetches that list, and a
 * (re)joined socket — or one told the link no longer lets it in — refetches the project's lists.
 */
import type { RealtimeEvent } from "@redline/shared";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { refetchFresh, restartReads } from "../../lib/fresh-reads.ts";
import { guestRealtime, type RoomListener } from "../../lib/realtime.ts";
import { guestKey } from "../conversations/guest-key.ts";
import {
  type CommentScope,
  commentsKey,
  removeComment,
  slideCommentsScope,
  upsertComment,
} from "./comment-queries.ts";

/** The listener for one project's guest comments (exported for its unit test). */
export function guestCommentsListener(
  queryClient: QueryClient,
  projectId: string,
  guestIdentity: string,
): RoomListener {
  return {
    onEvent(event: RealtimeEvent) {
      if (
        (event.type !== "comments.created" &&
          event.type !== "comments.changed" &&
          event.type !== "comments.deleted") ||
        event.projectId !== projectId
      )
        return;
      // A slide's comment goes into the deck's list, a page's into its version's.
      const scope: CommentScope = event.slideId
        ? slideCommentsScope(projectId, guestIdentity)
        : { projectId, versionId: event.versionId ?? "", guestIdentity };
      if (event.type === "comments.deleted") removeComment(queryClient, scope, event.commentId);
      else if (event.comment) upsertComment(queryClient, scope, event.comment);
      else return void refetchFresh(queryClient, { queryKey: commentsKey(scope) });
      // A read of the list under way may answer with what was there before.
      void restartReads(queryClient, { queryKey: commentsKey(scope) });
    },
    onResync() {
      void refetchFresh(queryClient, {
        predicate: ({ queryKey }) =>
          queryKey[0] === "api" &&
          queryKey[1] === "share" &&
          queryKey[2] === projectId &&
          (queryKey[5] === "comments" || queryKey[3] === "slide-comments"),
      });
    },
  };
}

/** Follows the link's comments of `projectId` while `enabled` (a guest's view of the link). */
export function useGuestCommentsRealtime(projectId: string, guestIdentity: string, enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    return guestRealtime().subscribeGuest(
      projectId,
      guestKey(),
      guestCommentsListener(queryClient, projectId, guestIdentity),
      "comments",
    );
  }, [queryClient, projectId, guestIdentity, enabled]);
}
