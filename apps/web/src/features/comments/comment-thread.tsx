/**
 * One comment opened in the panel: its entries (text with mentions, attachments, edited mark), the
 * author's edit and delete, resolve / reopen, and the reply box. Deleting the first entry removes the
 * whole comment (SPEC §4), so that asks first.
 */
import type { Comment, MentionPerson } from "@redline/shared";
import { ArrowLeft, Check, RotateCcw } from "lucide-react";
import { CardActions } from "../../components/card-actions.tsx";
import { DiscussionThread } from "../../components/discussion/thread.tsx";
import { CommentComposer } from "./comment-composer.tsx";
import {
  type CommentScope,
  useDeleteEntry,
  useEditEntry,
  useReply,
  useUpdateComment,
  videoTargetOf,
} from "./comment-queries.ts";

export function CommentThread({
  comment,
  number,
  scope,
  people,
  onBack,
  onDraftChange,
  canManageIntegrations,
}: {
  comment: Comment;
  number: number;
  scope: CommentScope;
  people: MentionPerson[] | null;
  onBack(): void;
  onDraftChange(hasDraft: boolean): void;
  /** Set in a member's view: the thread's task-tracker cards show, and "Create card" when true. */
  canManageIntegrations?: boolean;
}) {
  const reply = useReply(scope);
  const update = useUpdateComment(scope);
  const remove = useDeleteEntry(scope);
  const edit = useEditEntry(scope);
  const first = comment.thread[0];

  return (
    <section className="thread" aria-labelledby={`thread-${comment.id}`}>
      <div className="thread__head">
        <button type="button" className="icon-btn" aria-label="Back to all comments" onClick={onBack}>
          <ArrowLeft size={16} aria-hidden />
        </button>
        <h3 id={`thread-${comment.id}`} className="thread__title">
          Comment {number}
        </h3>
        {comment.isResolved ? <span className="tag tag--success">Resolved</span> : null}
        <span className="thread__spacer" />
        {comment.abilities.resolve ? (
          <button
            type="button"
            className={comment.isResolved ? "btn btn--ghost" : "btn"}
            disabled={update.isPending}
            onClick={() => update.mutate({ commentId: comment.id, isResolved: !comment.isResolved })}
          >
            {comment.isResolved ? (
              <>
                <RotateCcw size={14} aria-hidden /> Reopen
              </>
            ) : (
              <>
                <Check size={14} aria-hidden /> Resolve
              </>
            )}
          </button>
        ) : null}
      </div>
      {canManageIntegrations !== undefined ? (
        <CardActions
          projectId={scope.projectId}
          subject="comment"
          subjectId={comment.id}
          canManage={canManageIntegrations}
        />
      ) : null}
      <DiscussionThread
        entries={comment.thread}
        people={people}
        projectId={scope.projectId}
        noun="comment"
        canDownload={comment.abilities.attach}
        className="thread__entries"
        Editor={CommentComposer}
        isSaving={edit.isPending}
        onSave={(entry, text) =>
          edit.mutateAsync({ commentId: comment.id, entryId: entry.id, comment: text })
        }
        onDraftChange={onDraftChange}
        reply={
          comment.abilities.reply
            ? {
                key: comment.id,
                allowAttachments: comment.abilities.attach,
                videoTarget: videoTargetOf(scope, comment.abilities.attach),
                isPending: reply.isPending,
                onSubmit: (input) => reply.mutateAsync({ commentId: comment.id, ...input }),
              }
            : null
        }
        deletion={(entry) =>
          entry === first
            ? {
                title: "Delete this comment?",
                description: "Deleting the first message removes the whole comment with its replies.",
                confirmLabel: "Delete",
              }
            : {
                title: "Delete this reply?",
                description: "The reply is removed for everyone.",
                confirmLabel: "Delete",
              }
        }
        isDeleting={remove.isPending}
        onConfirmDelete={(entry, done) => {
          const wasFirst = entry === first;
          remove.mutate(
            { commentId: comment.id, entryId: entry.id },
            {
              onSuccess: () => {
                done();
                if (wasFirst) onBack();
              },
            },
          );
        }}
      />
    </section>
  );
}
