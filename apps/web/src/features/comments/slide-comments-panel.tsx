/**
 * The panel of a slide's comments (issue #32): the comments of the slide being edited, the new comment
 * being placed, and a thread — this feature's composer and thread, for a slide target. The slide editor
 * gets it from its page (features/slides/slide-comments-slot.ts): the project page for members, the public
 * link's view for its guests (their comments written under their guest name, without files).
 */
import type { Comment, MentionPerson, Slide } from "@redline/shared";
import { MessageSquare, MessageSquarePlus } from "lucide-react";
import { useState } from "react";
import { MentionText } from "../../components/discussion/entry.tsx";
import type { SlideCommentsPanelProps } from "../slides/slide-comments-slot.ts";
import { CommentComposer } from "./comment-composer.tsx";
import { useCreateSlideComment, videoTargetOf } from "./comment-queries.ts";
import { CommentThread } from "./comment-thread.tsx";
import { describeSlideTarget, findOnSlide, slideTargetOf } from "./stages/slide-target.ts";
import "./comments.css";

/** A comment pinned to an object that is no longer on its slide (it keeps its place in the list, not its pin). */
function isObjectGone(comment: Comment, slide: Slide | undefined) {
  const target = slideTargetOf(comment);
  return Boolean(slide && target?.objectId && !findOnSlide(target, slide));
}

export function SlideCommentsPanel({
  scope,
  canComment,
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
}: SlideCommentsPanelProps & {
  /** The project's people for mentions; null for a guest of the public link (they cannot be listed). */
  people: MentionPerson[] | null;
}) {
  const create = useCreateSlideComment(scope);
  const [, setDraft] = useState(false);
  const onSlide = comments.filter((comment) => comment.slideId === slide?.id);
  const open = comments.find((comment) => comment.id === openId);
  const isGuest = scope.guestIdentity !== undefined;

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
          <p className="activity__hint">{describeSlideTarget(pending)}</p>
          <CommentComposer
            key={JSON.stringify(pending)}
            label="Write a comment"
            submitLabel="Comment"
            people={people}
            projectId={scope.projectId}
            allowAttachments={!isGuest}
            videoTarget={videoTargetOf(scope, !isGuest)}
            autoFocus
            isPending={create.isPending}
            onSubmit={async (input) => {
              const created = await create.mutateAsync({
                slideId: pending.slideId,
                target: pending,
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
                        {isObjectGone(comment, slide) ? " · Object deleted" : ""}
                      </span>
                      <MentionText text={comment.thread[0]?.comment ?? ""} people={people} />
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
