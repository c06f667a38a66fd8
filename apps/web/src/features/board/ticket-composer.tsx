/**
 * Writing a reply on a ticket: the discussion composer (components/discussion) with a ticket entry's length
 * limit; a video goes to the ticket's uploads where the reply may carry one.
 */
import { MAX_TICKET_ENTRY } from "@redline/shared";
import { Composer, type ComposerProps } from "../../components/discussion/composer.tsx";

export function TicketComposer(props: ComposerProps) {
  return <Composer className="ticket-composer" {...props} maxLength={MAX_TICKET_ENTRY} noun="reply" />;
}
