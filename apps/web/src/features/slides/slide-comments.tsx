/**
 * Comments on the slide being edited (issue #32): the comments module's threads (comment-thread.tsx,
 * comment-composer.tsx) in a panel beside the stage, and their pins on it — at a point of the slide or on
 * an object, following the object as it moves (slidePinPoint, with the deck as it now is). "Comment"
 * places a new one with the next click; a pin dragged is saved 1000 ms after it is let go (SPEC §9), and
 * at once when the editor closes. `?id={commentID}` opens the comment's slide and thread (SPEC §2).
 */
import {
  type Comment,
  commentsPerSlide,
  type MentionPerson,
  type ProjectDetail,
  SLIDE_SAVE_DELAY_MS,
  type Slide,
  slideDotOf,
  slidePinPoint,
} from "@redline/shared";
import { useQueryClient } from "@tanstack/react-query";
import { MessageSquare, MessageSquarePlus } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { CommentComposer } from "../comments/comment-composer.tsx";
import {
  commentsKey,
  slideCommentsScope,
  useComments,
  useCreateSlideComment,
  useUpdateComment,
} from "../comments/comment-queries.ts";
import { CommentText, CommentThread } from "../comments/comment-thread.tsx";
import type { StagePin } from "./slide-stage.tsx";
import "../comments/comments.css";

/** A comment being placed: its slide, the object it is on (if any) and where. */
export interface PendingSlideComment {
  slideId: string;
  objectId: string | null;
  dotPosition: { x: number; y: number };
}

/** The slide comments of a project, numbered per slide in the order they were made. */
export function useSlideComments(projectId: string) {
  const scope = useMemo(() => slideCommentsScope(projectId), [projectId]);
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
    if (comment.slideId !== slide.id) return [];
    const at = slidePinPoint(comment, slide);
    return at
      ? [
          {
            id: comment.id,
            number: numbers.get(comment.id) ?? 0,
            ...at,
            isResolved: comment.isResolved,
            isOpen: comment.id === openId,
            movable: comment.abilities.move,
          },
        ]
      : [];
  });
}

/**
 * Moves a pin at once on screen and saves it 1000 ms after the last move (SPEC §9's delay for a comment);
 * whatever waits is saved when the editor closes.
 */
export function useMovePin(projectId: string, slide: Slide | undefined, comments: readonly Comment[]) {
  const queryClient = useQueryClient();
  const scope = useMemo(() => slideCommentsScope(projectId), [projectId]);
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
      if (!comment || !slide) return;
      const dotPosition = slideDotOf(at, comment.objectId ? (slide.objects[comment.objectId] ?? null) : null);
      queryClient.setQueryData<Comment[]>(commentsKey(scope), (list) =>
        list?.map((entry) => (entry.id === commentId ? { ...entry, dotPosition } : entry)),
      );
      const save = () => {
        waiting.current.delete(commentId);
        update.mutate({ commentId, dotPosition });
      };
      const previous = waiting.current.get(commentId);
      if (previous) clearTimeout(previous.timer);
      waiting.current.set(commentId, { timer: setTimeout(save, SLIDE_SAVE_DELAY_MS.comment), save });
    },
    [comments, slide, queryClient, scope, update],
  );
}

export function SlideCommentsPanel({
  project,
  slide,
  comments,
  numbers,
  isLoading,
  isError,
  openId,
  onOpen,
  placing,
  onPlace,
  pending,
  onCancelPending,
  people,
}: {
  project: ProjectDetail;
  slide: Slide | undefined;
  comments: readonly Comment[];
  numbers: Map<string, number>;
  isLoading: boolean;
  isError: boolean;
  openId: string | null;
  onOpen(commentId: string | null): void;
  /** Whether the next click on the slide places a comment. */
  placing: boolean;
  onPlace(placing: boolean): void;
  pending: PendingSlideComment | null;
  onCancelPending(): void;
  people: MentionPerson[];
}) {
  const scope = useMemo(() => slideCommentsScope(project.id), [project.id]);
  const create = useCreateSlideComment(scope);
  const [, setDraft] = useState(false);
  const onSlide = comments.filter((comment) => comment.slideId === slide?.id);
  const open = comments.find((comment) => comment.id === openId);
  const canComment = project.abilities.comment;

  return (
    <aside className="activity slide-comments" aria-labelledby="slide-comments-title">
      <div className="activity__head">
        <h2 id="slide-comments-title" className="activity__title">
          Comments
        </h2>
        <span className="activity__count">{onSlide.length}</span>
        <span className="thread__spacer" />
        {canComment && slide ? (
          <button
            type="button"
            className={placing ? "btn" : "btn btn--ghost"}
            aria-pressed={placing}
            onClick={() => onPlace(!placing)}
          >
            <MessageSquarePlus size={16} aria-hidden /> Comment
          </button>
        ) : null}
      </div>
      {placing ? (
        <p className="activity__hint slide-comments__hint">
          Click the slide or an object to pin your comment.
        </p>
      ) : null}
      {pending ? (
        <section className="activity__new-comment" aria-label="New comment">
          <p className="activity__hint">
            {pending.objectId ? "Pinned to the selected object." : "Pinned to a point of the slide."}
          </p>
          <CommentComposer
            key={JSON.stringify(pending)}
            label="Write a comment"
            submitLabel="Comment"
            people={people}
            projectId={project.id}
            allowAttachments
            autoFocus
            isPending={create.isPending}
            onSubmit={async (input) => {
              const created = await create.mutateAsync({
                slideId: pending.slideId,
                ...(pending.objectId && { objectId: pending.objectId }),
                dotPosition: pending.dotPosition,
                ...input,
              });
              onCancelPending();
              onOpen(created.data.id);
            }}
            onCancel={onCancelPending}
            onDraftChange={setDraft}
          />
        </section>
      ) : null}
      {open ? (
        <CommentThread
          key={open.id}
          comment={open}
          number={numbers.get(open.id) ?? 0}
          scope={scope}
          people={people}
          onBack={() => onOpen(null)}
          onDraftChange={setDraft}
        />
      ) : (
        <div className="activity__body">
          {isLoading ? (
            <p className="activity__hint">Loading comments…</p>
          ) : isError ? (
            <p className="activity__hint" role="alert">
              The comments could not be loaded. Check your connection and reload the page.
            </p>
          ) : onSlide.length === 0 ? (
            <div className="empty-state slide-comments__empty">
              <MessageSquare size={24} aria-hidden />
              <p className="empty-state__text">
                {canComment
                  ? "No comments on this slide yet. Use Comment to pin one to a point or an object."
                  : "No comments on this slide yet."}
              </p>
            </div>
          ) : (
            <ul className="slide-comments__list" aria-label="Comments on this slide">
              {onSlide.map((comment) => (
                <li key={comment.id}>
                  <button
                    type="button"
                    className="slide-comments__item"
                    data-resolved={comment.isResolved}
                    onClick={() => onOpen(comment.id)}
                  >
                    <span className="slide-comments__number" aria-hidden>
                      {numbers.get(comment.id)}
                    </span>
                    <span className="slide-comments__text">
                      <span className="slide-comments__author">
                        {comment.thread[0]?.author.displayName}
                        {comment.isResolved ? " · Resolved" : ""}
                        {comment.objectId && !slide?.objects[comment.objectId] ? " · Object deleted" : ""}
                      </span>
                      <CommentText text={comment.thread[0]?.comment ?? ""} people={people} />
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </aside>
  );
}
