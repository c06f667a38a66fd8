/**
 * One list as a column: its title (click to rename), a grip to move it, a menu to delete it (saying how
 * many tickets go with it), its cards, and the add-ticket form at the bottom. A long list renders only
 * the cards in view (@tanstack/react-virtual), keeping the one being dragged mounted.
 */
import { useDroppable } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { type BrowseList, MAX_LIST_TITLE, type Ticket } from "@redline/shared";
import { defaultRangeExtractor, type Range, useVirtualizer } from "@tanstack/react-virtual";
import { GripVertical, MoreHorizontal, Trash2 } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { memo, useCallback, useMemo, useRef, useState } from "react";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { InlineEdit } from "../../components/inline-edit.tsx";
import { AddTicketForm } from "./add-ticket-form.tsx";
import { useDeleteList, useRenameList } from "./board-queries.ts";
import { SortableTicketCard } from "./ticket-card.tsx";

/** Lists longer than this render only the cards in view. */
export const VIRTUALIZE_FROM = 40;
const ESTIMATED_CARD = 96;
const CARD_GAP = 8;

const estimateSize = () => ESTIMATED_CARD;

export function containerId(listId: string): string {
  return `cards:${listId}`;
}

export const BoardColumn = memo(function BoardColumn({
  list,
  tickets,
  total,
  today,
  activeCardId,
  isListDragging,
  isFiltered,
  onOpen,
}: {
  list: BrowseList;
  /** The cards shown (filtered), in order. */
  tickets: Ticket[];
  /** All the list's tickets (what deleting it removes). */
  total: number;
  today: string;
  activeCardId: string | null;
  isListDragging: boolean;
  isFiltered: boolean;
  onOpen(ticketId: string): void;
}) {
  const { setNodeRef, setActivatorNodeRef, attributes, listeners, transform, transition, isDragging } =
    useSortable({
      id: list.id,
      data: { type: "list" },
      disabled: !list.abilities.move || (activeCardId !== null && !isListDragging),
    });
  // Here, not in ColumnCards: a dnd-kit hook re-renders its component on every drag change, and the
  // memoized cards below then re-render only when their own props change.
  const { setNodeRef: setCardsRef } = useDroppable({
    id: containerId(list.id),
    data: { type: "cards", listId: list.id },
    disabled: isListDragging,
  });
  const rename = useRenameList();
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const remove = useDeleteList();
  const titleId = `list-title-${list.id}`;

  return (
    <section
      ref={setNodeRef}
      className={`board-column${isDragging ? " is-placeholder" : ""}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      aria-labelledby={titleId}
      {...(list.abilities.move ? listeners : {})}
    >
      <header className="board-column__head">
        {list.abilities.move ? (
          <button
            ref={setActivatorNodeRef}
            type="button"
            className="board-column__grip"
            {...attributes}
            aria-label={`Move list ${list.title}`}
          >
            <GripVertical size={14} aria-hidden />
          </button>
        ) : null}
        <InlineEdit
          value={list.title}
          label="Rename list"
          heading={{ id: titleId, className: "board-column__title" }}
          maxLength={MAX_LIST_TITLE}
          onSave={list.abilities.rename ? (title) => rename.mutate({ list, title }) : undefined}
        />
        <span className="board-column__count" title={isFiltered ? "Shown / all tickets" : "Tickets"}>
          {isFiltered ? `${tickets.length}/${total}` : total}
        </span>
        {list.abilities.delete ? (
          <DropdownMenu.Root>
            <DropdownMenu.Trigger
              className="icon-btn board-column__menu"
              aria-label={`List actions for ${list.title}`}
            >
              <MoreHorizontal size={16} aria-hidden />
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
                <DropdownMenu.Item
                  className="menu__item menu__item--danger"
                  onSelect={() => setDeleteOpen(true)}
                >
                  <Trash2 size={16} aria-hidden /> Delete list
                </DropdownMenu.Item>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        ) : null}
      </header>
      <ColumnCards
        dropRef={setCardsRef}
        list={list}
        tickets={tickets}
        today={today}
        activeCardId={activeCardId}
        isListDragging={isListDragging}
        isFiltered={isFiltered}
        onOpen={onOpen}
      />
      {list.abilities.addTicket ? <AddTicketForm list={list} /> : null}
      <ConfirmModal
        open={isDeleteOpen}
        onOpenChange={setDeleteOpen}
        title={`Delete the list “${list.title}”?`}
        description={
          total === 0
            ? "The list is empty. This cannot be undone."
            : `Its ${total === 1 ? "ticket goes" : `${total} tickets go`} with it, with their replies and screenshots. This cannot be undone.`
        }
        confirmLabel={
          total === 0 ? "Delete list" : `Delete list and ${total === 1 ? "1 ticket" : `${total} tickets`}`
        }
        pendingLabel="Deleting..."
        isPending={remove.isPending}
        onConfirm={() => remove.mutate(list, { onSuccess: () => setDeleteOpen(false) })}
      />
    </section>
  );
});

/** Memoized: a list's header changing (or the list being dragged) does not re-render its cards. */
const ColumnCards = memo(function ColumnCards({
  dropRef,
  list,
  tickets,
  today,
  activeCardId,
  isListDragging,
  isFiltered,
  onOpen,
}: {
  /** The list's card area as a drop target (an empty list, or below its last card). */
  dropRef(node: HTMLElement | null): void;
  list: BrowseList;
  tickets: Ticket[];
  today: string;
  activeCardId: string | null;
  isListDragging: boolean;
  isFiltered: boolean;
  onOpen(ticketId: string): void;
}) {
  const scroller = useRef<HTMLDivElement | null>(null);
  const isLong = tickets.length >= VIRTUALIZE_FROM;
  const activeIndex = activeCardId ? tickets.findIndex((ticket) => ticket.id === activeCardId) : -1;
  // The card being dragged stays mounted even when scrolled out of view (dnd-kit measures it).
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (activeIndex >= 0 && !indexes.includes(activeIndex)) indexes.push(activeIndex);
      return indexes.sort((a, b) => a - b);
    },
    [activeIndex],
  );
  const getItemKey = useCallback((index: number) => tickets[index]?.id ?? index, [tickets]);
  const virtualizer = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => scroller.current,
    estimateSize,
    gap: CARD_GAP,
    // Each drawn card is a sortable that re-renders on every drag change: draw few beyond the view.
    overscan: 3,
    enabled: isLong,
    rangeExtractor,
    // Stable while the cards are: a new key function makes the virtualizer re-measure every row.
    getItemKey,
  });
  const setRefs = useCallback(
    (node: HTMLDivElement | null) => {
      scroller.current = node;
      dropRef(node);
    },
    [dropRef],
  );
  const virtualItems = isLong ? virtualizer.getVirtualItems() : null;
  // A long list's sortable items are the cards drawn, not its thousands: dnd-kit walks the items on
  // every drag change (and queues them all for measuring, quadratically), and only drawn cards can be
  // dropped on anyway. The drop's place comes from the columns (use-board-dnd.ts), not these indexes.
  // The dragged card kept drawn far from the view is left out: its neighbours here are not its own.
  const shownIds = useMemo(
    () =>
      virtualItems
        ? virtualItems
            .filter(
              (item, at) =>
                item.index !== activeIndex ||
                virtualItems.length === 1 ||
                virtualItems[at - 1]?.index === item.index - 1 ||
                virtualItems[at + 1]?.index === item.index + 1,
            )
            .map((item) => tickets[item.index]?.id ?? "")
        : tickets.map((ticket) => ticket.id),
    [virtualItems, tickets, activeIndex],
  );
  const ids = useSameIds(shownIds);
  const canMove = (ticket: Ticket) => ticket.abilities.move;

  return (
    <div ref={setRefs} className="board-column__cards">
      <SortableContext id={containerId(list.id)} items={ids} strategy={verticalListSortingStrategy}>
        {tickets.length === 0 ? (
          <p className="board-column__empty">
            {isFiltered ? "No tickets match the filters." : "No tickets yet."}
          </p>
        ) : isLong ? (
          <ul
            className="board-column__list board-column__virtual"
            aria-label={`Tickets in ${list.title}`}
            style={{ height: virtualizer.getTotalSize() }}
          >
            {(virtualItems ?? []).map((item) => {
              const ticket = tickets[item.index]!;
              return (
                <li
                  key={ticket.id}
                  ref={virtualizer.measureElement}
                  data-index={item.index}
                  className="board-column__row"
                  style={{ top: item.start }}
                >
                  <SortableTicketCard
                    ticket={ticket}
                    today={today}
                    canMove={canMove(ticket)}
                    isListDragging={isListDragging}
                    onOpen={onOpen}
                  />
                </li>
              );
            })}
          </ul>
        ) : (
          <ul className="board-column__list" aria-label={`Tickets in ${list.title}`}>
            {tickets.map((ticket) => (
              <li key={ticket.id}>
                <SortableTicketCard
                  ticket={ticket}
                  today={today}
                  canMove={canMove(ticket)}
                  isListDragging={isListDragging}
                  onOpen={onOpen}
                />
              </li>
            ))}
          </ul>
        )}
      </SortableContext>
    </div>
  );
});

/** The previous array while the ids are the same (a re-measured row gives new virtual items, same cards). */
function useSameIds(ids: string[]): string[] {
  const previous = useRef(ids);
  const same =
    previous.current.length === ids.length && previous.current.every((id, index) => id === ids[index]);
  if (!same) previous.current = ids;
  return previous.current;
}
