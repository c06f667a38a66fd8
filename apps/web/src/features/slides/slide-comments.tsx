/**
 * Comments on the slide being edited (issue #32): the comments module's threads (comment-thread.tsx,
 * comment-composer.tsx) in a panel beside the stage (the comments feature's slide-comments-panel.tsx, handed to
 * the editor by its page: slide-comments-slot.ts), and their pins on it — at a point of the slide or on
 * an object, following the object as it moves (slidePinPoint, with the deck as it now is). "Comment"
 * places a new one with the next click; a pin dragged is saved 1000 ms after it is let go (SPEC §9), and
 * at once when the editor closes. `?id={commentID}` opens the comment's slide and thread (SPEC §2).
 */
import { type Comment, commentsPerSlide, SLIDE_SAVE_DELAY_MS, type Slide } from "@redline/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef } from "react";
import {
  type CommentScope,
  commentsKey,
  slideCommentsScope,
  useComments,
  useUpdateComment,
} from "../comments/comment-queries.ts";
import { findOnSlide, movedOnSlide, slideTargetOf } from "../comments/stages/slide-target.ts";
import type { StagePin } from "./slide-stage.tsx";
import "../comments/comments.css";

/** The slide comments of a project, numbered per slide in the order they were made (a guest's: by the link). */
export function useSlideComments(projectId: string, guestIdentity?: string) {
  const scope = useMemo(() => slideCommentsScope(projectId, guestIdentity), [projectId, guestIdentity]);
  const query = useComments(scope);
  const numbers = useMemo(() => {
    const perSlide = new Map<string, number>();
    const numbered = new Map<string, number>();
    for (const comment of query.data ?? []) {
      const next = (perSlide.get(comment.slideId ?? "") ?? 0) + 1;
      perSlide.set(comment.slideId ?? "", next);
      numbered.set(comment.id, next);
    }
    return numbered;
  }, [query.data]);
  const noOfComments = useMemo(() => commentsPerSlide(query.data ?? []), [query.data]);
  return { scope, query, comments: query.data ?? [], numbers, noOfComments };
}

/** The pins of one slide's comments, where they now are; a comment whose object is gone has none. */
export function pinsOf(
  comments: readonly Comment[],
  slide: Slide,
  numbers: Map<string, number>,
  openId: string | null,
): StagePin[] {
  return comments.flatMap((comment) => {
    const target = slideTargetOf(comment);
    if (target?.slideId !== slide.id) return [];
    const at = findOnSlide(target, slide);
    return at
      ? [
          {
            id: comment.id,
            number: numbers.get(comment.id) ?? 0,
            ...at,
            isResolved: comment.isResolved,
            isOpen: comment.id === openId,
            movable: comment.abilities.move,
            author: comment.thread[0]?.author.displayName ?? "",
          },
        ]
      : [];
  });
}

/**
 * Moves a pin at once on screen and saves it 1000 ms after the last move (SPEC §9's delay for a comment);
 * whatever waits is saved when the editor closes.
 */
export function useMovePin(scope: CommentScope, slide: Slide | undefined, comments: readonly Comment[]) {
  const queryClient = useQueryClient();
  const update = useUpdateComment(scope);
  const waiting = useRef(new Map<string, { timer: ReturnType<typeof setTimeout>; save(): void }>());
  useEffect(() => {
    const pending = waiting.current;
    return () => {
      for (const { timer, save } of pending.values()) {
        clearTimeout(timer);
        save();
      }
      pending.clear();
    };
  }, []);
  return useCallback(
    (commentId: string, at: { x: number; y: number }) => {
      const comment = comments.find((entry) => entry.id === commentId);
      const before = comment ? slideTargetOf(comment) : null;
      if (!before || !slide) return;
      const target = movedOnSlide(before, slide, at);
      queryClient.setQueryData<Comment[]>(commentsKey(scope), (list) =>
        list?.map((entry) =>
          entry.id === commentId ? { ...entry, target, dotPosition: target.point } : entry,
        ),
      );
      const save = () => {
        waiting.current.delete(commentId);
        update.mutate({ commentId, target });
      };
      const previous = waiting.current.get(commentId);
      if (previous) clearTimeout(previous.timer);
      waiting.current.set(commentId, { timer: setTimeout(save, SLIDE_SAVE_DELAY_MS.comment), save });
    },
    [comments, slide, queryClient, scope, update],
  );
}
