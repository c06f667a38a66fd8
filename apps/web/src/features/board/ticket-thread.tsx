/**
 * A ticket's thread: the first entry (the report's note or the description the ticket began with) and
 * the replies, each with mentions, attachments and a recorded video (recorded and played as a comment's); authors edit and delete their own (SPEC §4: deleting
 * the only entry deletes the ticket, so that asks first and says so).
 */
import {
  deletingEntryDeletesTicket,
  type MentionPerson,
  mentionParts,
  type TicketDetail,
  type TicketEntry,
} from "@redline/shared";
import { Download, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { Avatar } from "../../components/avatar.tsx";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { VideoPlayer } from "../../components/video/video-player.tsx";
import { ticketVideoTarget } from "../../components/video/video-recorder-modal.tsx";
import { timeAgo } from "../../lib/time-ago.ts";
import { attachmentUrl } from "../comments/comment-queries.ts";
import { useAddEntry, useDeleteEntry, useEditEntry } from "./board-queries.ts";
import { TicketComposer } from "./ticket-composer.tsx";

function EntryText({ text, people }: { text: string; people: MentionPerson[] }) {
  return (
    <p className="ticket-entry__text">
      {mentionParts(text, people).map((part, index) =>
        part.kind === "text" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one text never reorder
          <span key={index}>{part.text}</span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one text never reorder
          <span key={index} className="ticket-mention">
            {part.name}
          </span>
        ),
      )}
    </p>
  );
}

export function TicketThread({ ticket, people }: { ticket: TicketDetail; people: MentionPerson[] }) {
  const reply = useAddEntry(ticket);
  const edit = useEditEntry(ticket);
  const remove = useDeleteEntry(ticket);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<TicketEntry | null>(null);
  const deletesTicket = deletingEntryDeletesTicket(ticket.thread.length);

  return (
    <section className="ticket-thread" aria-labelledby={`thread-${ticket.id}`}>
      <h3 id={`thread-${ticket.id}`} className="ticket-panel__heading">
        Activity
      </h3>
      {ticket.thread.length === 0 ? <p className="ticket-thread__empty">No messages yet.</p> : null}
      <ol className="ticket-thread__entries">
        {ticket.thread.map((entry) => (
          <li key={entry.id} className="ticket-entry">
            <div className="ticket-entry__head">
              <Avatar name={entry.author.displayName} photoURL={entry.author.photoURL} size={24} />
              <span className="ticket-entry__author">{entry.author.displayName}</span>
              {entry.author.isGuest ? <span className="tag">Guest</span> : null}
              <time className="ticket-entry__time" dateTime={entry.createdAt} title={entry.createdAt}>
                {timeAgo(entry.createdAt)}
              </time>
              {entry.editedAt ? <span className="ticket-entry__time">(edited)</span> : null}
              <span className="ticket-card__spacer" />
              {entry.abilities.edit && editing !== entry.id ? (
                <button
                  type="button"
                  className="icon-btn ticket-entry__action"
                  aria-label="Edit message"
                  onClick={() => setEditing(entry.id)}
                >
                  <Pencil size={14} aria-hidden />
                </button>
              ) : null}
              {entry.abilities.delete ? (
                <button
                  type="button"
                  className="icon-btn ticket-entry__action"
                  aria-label="Delete message"
                  onClick={() => setDeleting(entry)}
                >
                  <Trash2 size={14} aria-hidden />
                </button>
              ) : null}
            </div>
            {editing === entry.id ? (
              <TicketComposer
                label="Edit message"
                submitLabel="Save"
                people={people}
                projectId={ticket.projectId}
                initialText={entry.comment}
                allowAttachments={false}
                autoFocus
                isPending={edit.isPending}
                onSubmit={({ comment }) =>
                  edit.mutateAsync({ entryId: entry.id, comment }).then(() => setEditing(null))
                }
                onCancel={() => setEditing(null)}
              />
            ) : (
              <EntryText text={entry.comment} people={people} />
            )}
            <VideoPlayer entry={entry} />
            {entry.attachments.length > 0 ? (
              <ul className="ticket-entry__files" aria-label="Attachments">
                {entry.attachments.map((file) => (
                  <li key={file.path}>
                    <a
                      className="ticket-entry__file"
                      href={attachmentUrl(ticket.projectId, file)}
                      download={file.name}
                    >
                      <Download size={14} aria-hidden /> {file.name}
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
      {ticket.abilities.reply ? (
        <TicketComposer
          key={ticket.id}
          label="Reply"
          submitLabel="Reply"
          people={people}
          projectId={ticket.projectId}
          allowAttachments={ticket.abilities.attach}
          videoTarget={ticket.abilities.attach ? ticketVideoTarget(ticket.id) : null}
          isPending={reply.isPending}
          onSubmit={(input) => reply.mutateAsync(input)}
        />
      ) : null}
      <ConfirmModal
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deletesTicket ? "Delete this ticket?" : "Delete this message?"}
        description={
          deletesTicket
            ? "It is the ticket's only message: deleting it deletes the ticket."
            : "The message is removed for everyone."
        }
        confirmLabel={deletesTicket ? "Delete ticket" : "Delete message"}
        pendingLabel="Deleting..."
        isPending={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) });
        }}
      />
    </section>
  );
}
