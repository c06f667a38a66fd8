/**
 * One comment opened in the panel: its entries (text with mentions, attachments, edited mark), the
 * author's edit and delete, resolve / reopen, and the reply box. Deleting the first entry removes the
 * whole comment (SPEC §4), so that asks first.
 */
import type { Comment, CommentEntry, MentionPerson } from "@redline/shared";
import { formatBytes, mentionParts } from "@redline/shared";
import { ArrowLeft, Check, Download, Pencil, RotateCcw, Trash2 } from "lucide-react";
import { useState } from "react";
import { Avatar } from "../../components/avatar.tsx";
import { CardActions } from "../../components/card-actions.tsx";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { VideoPlayer } from "../../components/video/video-player.tsx";
import { timeAgo } from "../../lib/time-ago.ts";
import { CommentComposer } from "./comment-composer.tsx";
import {
  attachmentUrl,
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
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<CommentEntry | null>(null);
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
      <ol className="thread__entries">
        {comment.thread.map((entry) => {
          return (
            <li key={entry.id} className="entry">
              <div className="entry__head">
                <Avatar name={entry.author.displayName} photoURL={entry.author.photoURL} size={24} />
                <span className="entry__author">{entry.author.displayName}</span>
                {entry.author.isGuest ? <span className="tag">Guest</span> : null}
                <time className="entry__time" dateTime={entry.createdAt} title={entry.createdAt}>
                  {timeAgo(entry.createdAt)}
                </time>
                {entry.editedAt ? <span className="entry__edited">(edited)</span> : null}
                <span className="thread__spacer" />
                {entry.abilities.edit && editing !== entry.id ? (
                  <button
                    type="button"
                    className="icon-btn entry__action"
                    aria-label="Edit comment"
                    onClick={() => setEditing(entry.id)}
                  >
                    <Pencil size={14} aria-hidden />
                  </button>
                ) : null}
                {entry.abilities.delete ? (
                  <button
                    type="button"
                    className="icon-btn entry__action"
                    aria-label="Delete comment"
                    onClick={() => setDeleting(entry)}
                  >
                    <Trash2 size={14} aria-hidden />
                  </button>
                ) : null}
              </div>
              {editing === entry.id ? (
                <CommentComposer
                  label="Edit comment"
                  submitLabel="Save"
                  people={people}
                  projectId={scope.projectId}
                  initialText={entry.comment}
                  allowAttachments={false}
                  autoFocus
                  isPending={edit.isPending}
                  onSubmit={({ comment: text }) =>
                    edit
                      .mutateAsync({ commentId: comment.id, entryId: entry.id, comment: text })
                      .then(() => setEditing(null))
                  }
                  onCancel={() => setEditing(null)}
                  onDraftChange={onDraftChange}
                />
              ) : (
                <p className="entry__text">
                  <CommentText text={entry.comment} people={people} />
                </p>
              )}
              <VideoPlayer entry={entry} />
              {entry.attachments.length > 0 ? (
                <ul className="entry__files" aria-label="Attachments">
                  {entry.attachments.map((file) => (
                    <li key={file.path}>
                      {comment.abilities.attach ? (
                        <a
                          className="entry__file"
                          href={attachmentUrl(scope.projectId, file)}
                          download={file.name}
                        >
                          <Download size={14} aria-hidden /> {file.name}
                          <span className="entry__file-size">{formatBytes(file.size)}</span>
                        </a>
                      ) : (
                        <span className="entry__file">{file.name}</span>
                      )}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ol>
      {comment.abilities.reply ? (
        <CommentComposer
          key={comment.id}
          label="Reply"
          submitLabel="Reply"
          people={people}
          projectId={scope.projectId}
          allowAttachments={comment.abilities.attach}
          videoTarget={videoTargetOf(scope, comment.abilities.attach)}
          isPending={reply.isPending}
          onSubmit={(input) => reply.mutateAsync({ commentId: comment.id, ...input })}
          onDraftChange={onDraftChange}
        />
      ) : null}
      <ConfirmModal
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deleting === first ? "Delete this comment?" : "Delete this reply?"}
        description={
          deleting === first
            ? "Deleting the first message removes the whole comment with its replies."
            : "The reply is removed for everyone."
        }
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        isPending={remove.isPending}
        isDanger
        onConfirm={() => {
          if (!deleting) return;
          const wasFirst = deleting === first;
          remove.mutate(
            { commentId: comment.id, entryId: deleting.id },
            {
              onSuccess: () => {
                setDeleting(null);
                if (wasFirst) onBack();
              },
            },
          );
        }}
      />
    </section>
  );
}

export function CommentText({ text, people }: { text: string; people: MentionPerson[] | null }) {
  return (
    <>
      {mentionParts(text, people).map((part, index) =>
        part.kind === "text" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one text never reorder
          <span key={index}>{part.text}</span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one text never reorder
          <span key={index} className="mention">
            {part.name}
          </span>
        ),
      )}
    </>
  );
}
