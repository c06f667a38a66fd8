/**
 * The first column: widget reports waiting for a member's decision (accept, duplicate, reject). Cards
 * here do not drag — accepting says which list a report joins.
 */
import { type BrowseList, TICKET_MESSAGES, type Ticket } from "@redline/shared";
import { Inbox } from "lucide-react";
import { memo } from "react";
import { TicketCardView } from "./ticket-card.tsx";
import { TriageActions } from "./triage-actions.tsx";

export const TriageColumn = memo(function TriageColumn({
  tickets,
  total,
  lists,
  allTickets,
  today,
  isFiltered,
  onOpen,
}: {
  tickets: Ticket[];
  total: number;
  lists: BrowseList[];
  allTickets: Ticket[];
  today: string;
  isFiltered: boolean;
  onOpen(ticketId: string): void;
}) {
  return (
    <section className="board-column board-column--triage" aria-labelledby="triage-title">
      <header className="board-column__head">
        <Inbox size={16} aria-hidden className="board-column__icon" />
        <h2 id="triage-title" className="board-column__title board-column__title--static">
          {TICKET_MESSAGES.triageTitle}
        </h2>
        <span className="board-column__count">{isFiltered ? `${tickets.length}/${total}` : total}</span>
      </header>
      <div className="board-column__cards">
        {tickets.length === 0 ? (
          <p className="board-column__empty">
            {isFiltered && total > 0 ? "No reports match the filters." : TICKET_MESSAGES.triageEmpty}
          </p>
        ) : (
          <ul className="board-column__list" aria-label="Reports in triage">
            {tickets.map((ticket) => (
              <li key={ticket.id}>
                <TicketCardView
                  ticket={ticket}
                  today={today}
                  onOpen={onOpen}
                  footer={<TriageActions ticket={ticket} lists={lists} tickets={allTickets} compact />}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
});
