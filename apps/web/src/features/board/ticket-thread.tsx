/**
 * A ticket's thread: the first entry (the report's note or the description the ticket began with) and
 * the replies, each with mentions, attachments and a recorded video (recorded and played as a comment's); authors edit and delete their own (SPEC §4: deleting
 * the only entry deletes the ticket, so that asks first and says so).
 */
import {
  deletingEntryDeletesTicket,
  type MentionPerson,
  type TicketDetail,
  type TicketEntry,
} from "@redline/shared";
import { useState } from "react";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { ThreadEntries } from "../../components/discussion/entries.tsx";
import { ticketVideoTarget } from "../../components/video/video-recorder-modal.tsx";
import { useAddEntry, useDeleteEntry, useEditEntry } from "./board-queries.ts";
import { TicketComposer } from "./ticket-composer.tsx";

export function TicketThread({ ticket, people }: { ticket: TicketDetail; people: MentionPerson[] }) {
  const reply = useAddEntry(ticket);
  const edit = useEditEntry(ticket);
  const remove = useDeleteEntry(ticket);
  const [deleting, setDeleting] = useState<TicketEntry | null>(null);
  const deletesTicket = deletingEntryDeletesTicket(ticket.thread.length);

  return (
    <section className="ticket-thread" aria-labelledby={`thread-${ticket.id}`}>
      <h3 id={`thread-${ticket.id}`} className="ticket-panel__heading">
        Activity
      </h3>
      {ticket.thread.length === 0 ? <p className="ticket-thread__empty">No messages yet.</p> : null}
      <ThreadEntries
        entries={ticket.thread}
        people={people}
        projectId={ticket.projectId}
        noun="message"
        canDownload
        className="ticket-thread__entries"
        Editor={TicketComposer}
        isSaving={edit.isPending}
        onSave={(entry, comment) => edit.mutateAsync({ entryId: entry.id, comment })}
        onDelete={setDeleting}
      />
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
