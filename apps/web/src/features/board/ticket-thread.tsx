/**
 * A ticket's thread: the first entry (the report's note or the description the ticket began with) and
 * the replies, each with mentions, attachments and a recorded video (recorded and played as a comment's); authors edit and delete their own (SPEC §4: deleting
 * the only entry deletes the ticket, so that asks first and says so).
 */
import { deletingEntryDeletesTicket, type MentionPerson, type TicketDetail } from "@redline/shared";
import { DiscussionThread } from "../../components/discussion/thread.tsx";
import { ticketVideoTarget } from "../../components/video/video-recorder-modal.tsx";
import { useAddEntry, useDeleteEntry, useEditEntry } from "./board-queries.ts";
import { TicketComposer } from "./ticket-composer.tsx";

export function TicketThread({ ticket, people }: { ticket: TicketDetail; people: MentionPerson[] }) {
  const reply = useAddEntry(ticket);
  const edit = useEditEntry(ticket);
  const remove = useDeleteEntry(ticket);
  const deletesTicket = deletingEntryDeletesTicket(ticket.thread.length);

  return (
    <section className="ticket-thread" aria-labelledby={`thread-${ticket.id}`}>
      <h3 id={`thread-${ticket.id}`} className="ticket-panel__heading">
        Activity
      </h3>
      {ticket.thread.length === 0 ? <p className="ticket-thread__empty">No messages yet.</p> : null}
      <DiscussionThread
        entries={ticket.thread}
        people={people}
        projectId={ticket.projectId}
        noun="message"
        canDownload
        className="ticket-thread__entries"
        Editor={TicketComposer}
        isSaving={edit.isPending}
        onSave={(entry, comment) => edit.mutateAsync({ entryId: entry.id, comment })}
        reply={
          ticket.abilities.reply
            ? {
                key: ticket.id,
                allowAttachments: ticket.abilities.attach,
                videoTarget: ticket.abilities.attach ? ticketVideoTarget(ticket.id) : null,
                isPending: reply.isPending,
                onSubmit: (input) => reply.mutateAsync(input),
              }
            : null
        }
        deletion={() =>
          deletesTicket
            ? {
                title: "Delete this ticket?",
                description: "It is the ticket's only message: deleting it deletes the ticket.",
                confirmLabel: "Delete ticket",
              }
            : {
                title: "Delete this message?",
                description: "The message is removed for everyone.",
                confirmLabel: "Delete message",
              }
        }
        isDeleting={remove.isPending}
        onConfirmDelete={(entry, done) => remove.mutate(entry.id, { onSuccess: done })}
      />
    </section>
  );
}
