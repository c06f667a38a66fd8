/**
 * A ticket as a card (SPEC §3): screenshot thumbnail, #number, title, reporter, due date (overdue
 * marked), resolved state, comment count and the assignee's avatar. The title opens the ticket; in a
 * list the whole card drags with the mouse and its grip button with the keyboard.
 */
import type { DraggableAttributes, DraggableSyntheticListeners } from "@dnd-kit/core";
import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import type { Ticket } from "@redline/shared";
import { CalendarDays, CircleCheck, GripVertical, MessageSquare } from "lucide-react";
import { memo, type ReactNode, type Ref, useMemo } from "react";
import { Avatar } from "../../components/avatar.tsx";
import { isOverdue } from "./board-rules.ts";

// Made once: `toLocaleDateString` builds a formatter on every call (a board draws dozens of dates).
const sameYearFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short" });
const otherYearFormat = new Intl.DateTimeFormat(undefined, {
  day: "numeric",
  month: "short",
  year: "numeric",
});

export function formatDueDate(day: string): string {
  const date = new Date(`${day}T12:00:00`);
  const sameYear = date.getFullYear() === new Date().getFullYear();
  return (sameYear ? sameYearFormat : otherYearFormat).format(date);
}

export interface CardHandle {
  ref: Ref<HTMLButtonElement>;
  attributes: DraggableAttributes;
  listeners: DraggableSyntheticListeners;
}

/** Memoized: a drag re-renders every sortable's wrapper, not the cards' contents (props kept stable). */
export const TicketCardView = memo(function TicketCardView({
  ticket,
  today,
  onOpen,
  handle,
  footer,
  className = "",
}: {
  ticket: Ticket;
  today: string;
  onOpen?: (ticketId: string) => void;
  /** The keyboard's drag handle (cards in a list). */
  handle?: CardHandle;
  /** Extra controls under the card (triage actions). */
  footer?: ReactNode;
  className?: string;
}) {
  const overdue = isOverdue(ticket, today);
  const label = `#${ticket.number} ${ticket.title}`;
  return (
    <article
      className={`ticket-card${ticket.isResolved ? " is-resolved" : ""} ${className}`}
      aria-label={label}
    >
      {ticket.screenshotUrl ? (
        <div className="ticket-card__thumb">
          <img src={ticket.screenshotUrl} alt="" loading="lazy" decoding="async" draggable={false} />
        </div>
      ) : null}
      <div className="ticket-card__body">
        <div className="ticket-card__top">
          <span className="ticket-card__number">#{ticket.number}</span>
          <span className="ticket-card__reporter" title={`Reported by ${ticket.reporter.displayName}`}>
            <span className="visually-hidden">Reported by </span>
            {ticket.reporter.displayName}
          </span>
          {ticket.isResolved ? (
            <span className="ticket-card__resolved">
              <CircleCheck size={13} aria-hidden /> Resolved
            </span>
          ) : null}
          <span className="ticket-card__spacer" />
          {handle ? (
            <button
              ref={handle.ref}
              type="button"
              className="ticket-card__grip"
              {...handle.attributes}
              aria-label={`Move ticket #${ticket.number}: ${ticket.title}`}
            >
              <GripVertical size={14} aria-hidden />
            </button>
          ) : null}
        </div>
        <button type="button" className="ticket-card__title" onClick={() => onOpen?.(ticket.id)}>
          {ticket.title}
        </button>
        {ticket.dueDate || ticket.commentCount > 0 || ticket.assignee ? (
          <div className="ticket-card__meta">
            {ticket.dueDate ? (
              <span
                className={`ticket-card__due${overdue ? " is-overdue" : ""}`}
                title={overdue ? "Overdue" : "Due date"}
              >
                <CalendarDays size={12} aria-hidden />
                <span className="visually-hidden">{overdue ? "Overdue, was due" : "Due"} </span>
                {formatDueDate(ticket.dueDate)}
              </span>
            ) : null}
            {ticket.commentCount > 0 ? (
              <span className="ticket-card__comments" title="Replies">
                <MessageSquare size={12} aria-hidden />
                {ticket.commentCount}
                <span className="visually-hidden">{ticket.commentCount === 1 ? " reply" : " replies"}</span>
              </span>
            ) : null}
            <span className="ticket-card__spacer" />
            {ticket.assignee ? (
              <span className="ticket-card__assignee" title={`Assigned to ${ticket.assignee.displayName}`}>
                <Avatar name={ticket.assignee.displayName} photoURL={ticket.assignee.photoURL} size={22} />
                <span className="visually-hidden">Assigned to {ticket.assignee.displayName}</span>
              </span>
            ) : null}
          </div>
        ) : null}
      </div>
      {footer}
    </article>
  );
});

/** A card in a list: sortable among the list's cards and into other lists. */
export const SortableTicketCard = memo(function SortableTicketCard({
  ticket,
  today,
  canMove,
  isListDragging,
  onOpen,
}: {
  ticket: Ticket;
  today: string;
  canMove: boolean;
  /** A list is being dragged: cards are not drop targets meanwhile (cheaper, and no stray collisions). */
  isListDragging: boolean;
  onOpen(ticketId: string): void;
}) {
  const { setNodeRef, setActivatorNodeRef, attributes, listeners, transform, transition, isDragging } =
    useSortable({
      id: ticket.id,
      data: { type: "card", listId: ticket.listId },
      disabled: !canMove || isListDragging,
    });
  const handle = useMemo<CardHandle | undefined>(
    () =>
      canMove
        ? { ref: setActivatorNodeRef, attributes: { ...attributes, tabIndex: 0 }, listeners }
        : undefined,
    [canMove, setActivatorNodeRef, attributes, listeners],
  );
  return (
    <div
      ref={setNodeRef}
      className={`ticket-card__slot${isDragging ? " is-placeholder" : ""}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      {...(canMove ? listeners : {})}
    >
      <TicketCardView ticket={ticket} today={today} onOpen={onOpen} handle={handle} />
    </div>
  );
});
