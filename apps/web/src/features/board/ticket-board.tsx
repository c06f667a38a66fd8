/**
 * The bug-tracking board (SPEC §2, §3): Triage first, then the lists as columns of cards; filters and
 * search above; cards and lists move by drag and drop (use-board-dnd.ts); a ticket opens beside the
 * board from `?t={id}`. Live: every change in the project's room is written into the cached board.
 */
import { DndContext, DragOverlay, MeasuringStrategy } from "@dnd-kit/core";
import { horizontalListSortingStrategy, SortableContext } from "@dnd-kit/sortable";
import type { Board, BrowseList, Ticket } from "@redline/shared";
import { Columns3, Plus, RotateCw, TriangleAlert } from "lucide-react";
import { type ReactNode, useCallback, useMemo, useRef, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { errorMessage } from "../../lib/auth-client.ts";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";
import { BoardColumn } from "./board-column.tsx";
import { BoardFilters } from "./board-filters.tsx";
import { useBoard, useCreateList, useMoveList, useMoveTicket } from "./board-queries.ts";
import {
  bySortKey,
  columnsAfter,
  type BoardFilters as Filters,
  hasFilters,
  keepUnchangedColumns,
  localDay,
  matchesFilters,
  reportersOf,
  triageTickets,
} from "./board-rules.ts";
import { TicketCardView } from "./ticket-card.tsx";
import { TicketPanel } from "./ticket-panel.tsx";
import { TriageColumn } from "./triage-column.tsx";
import { boardCollisions, SCREEN_READER_INSTRUCTIONS, useBoardDnd } from "./use-board-dnd.ts";
import { useBoardRealtime } from "./use-board-realtime.ts";
import "./board.css";

/** Opening a ticket pushes `?t=`; closing goes back when the board opened it, else drops the parameter. */
function useTicketParam() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const ticketId = searchParams.get("t");
  const open = useCallback(
    (id: string) =>
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set("t", id);
          return next;
        },
        { state: { ticketFromBoard: true } },
      ),
    [setSearchParams],
  );
  const close = useCallback(() => {
    if ((location.state as { ticketFromBoard?: boolean } | null)?.ticketFromBoard) navigate(-1);
    else
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete("t");
          return next;
        },
        { replace: true },
      );
  }, [location.state, navigate, setSearchParams]);
  return { ticketId, open, close };
}

export function TicketBoard({ projectId, toolbar }: { projectId: string; toolbar?: ReactNode }) {
  const query = useBoard(projectId);
  useBoardRealtime(projectId, query.isSuccess);
  const { ticketId, open, close } = useTicketParam();

  if (query.isPending) return <BoardSkeleton />;
  if (query.isError)
    return (
      <div className="status-view board-error" role="alert">
        <TriangleAlert size={32} aria-hidden className="status-view__icon" />
        <h2 className="status-view__title">The board could not be loaded</h2>
        <p className="status-view__text">{errorMessage(query.error)}</p>
        <div className="status-view__actions">
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => query.refetch()}
            disabled={query.isFetching}
          >
            <RotateCw size={16} aria-hidden /> Try again
          </button>
        </div>
      </div>
    );
  return (
    <>
      <BoardView board={query.data} toolbar={toolbar} onOpen={open} />
      <TicketPanel ticketId={ticketId} board={query.data} onClose={close} />
    </>
  );
}

function BoardView({
  board,
  toolbar,
  onOpen,
}: {
  board: Board;
  toolbar?: ReactNode;
  onOpen(id: string): void;
}) {
  const [filters, setFilters] = useState<Filters>({});
  const [search, setSearch] = useState("");
  const q = useDebouncedValue(search, 150);
  const today = localDay(new Date());
  const moveTicket = useMoveTicket();
  const moveList = useMoveList();
  const createList = useCreateList(board.projectId);

  const active = useMemo<Filters>(() => (q.trim() ? { ...filters, q } : filters), [filters, q]);
  const isFiltered = hasFilters(active);
  const lists = useMemo(() => board.lists.slice().sort(bySortKey), [board.lists]);
  // A changed ticket moves within the columns it leaves and joins; the others keep their arrays.
  const columnsBefore = useRef<{ board: Board; columns: Map<string, Ticket[]> } | null>(null);
  const allColumns = useMemo(() => columnsAfter(columnsBefore.current, board), [board]);
  columnsBefore.current = { board, columns: allColumns };
  const previousColumns = useRef<Map<string, Ticket[]> | null>(null);
  const columns = useMemo(() => {
    let shown = allColumns;
    if (isFiltered) {
      shown = new Map();
      for (const [listId, tickets] of allColumns)
        shown.set(
          listId,
          tickets.filter((ticket) => matchesFilters(ticket, active, today)),
        );
    }
    return keepUnchangedColumns(previousColumns.current, shown);
  }, [allColumns, active, isFiltered, today]);
  previousColumns.current = columns;
  const triage = useMemo(() => triageTickets(board.tickets), [board.tickets]);
  const shownTriage = useMemo(
    () => (isFiltered ? triage.filter((ticket) => matchesFilters(ticket, active, today)) : triage),
    [triage, active, isFiltered, today],
  );
  const reporters = useMemo(() => reportersOf(board.tickets), [board.tickets]);

  const dnd = useBoardDnd({
    board,
    lists,
    columns,
    // Shown at once (the mutation writes the cache first), one request with the neighbours' ids.
    onMoveTicket: (ticket, listId, plan) => moveTicket.mutate({ ticket, listId, ...plan }),
    onMoveList: (list: BrowseList, plan) => moveList.mutate({ list, ...plan }),
  });
  const activeCard =
    dnd.drag?.type === "card" ? board.tickets.find((ticket) => ticket.id === dnd.drag?.activeId) : undefined;
  const activeList =
    dnd.drag?.type === "list" ? lists.find((list) => list.id === dnd.drag?.activeId) : undefined;
  const isListDragging = dnd.drag?.type === "list";
  const limit = board.ticketLimit;

  return (
    <div className="board">
      <div className="board__toolbar">
        <BoardFilters
          filters={filters}
          search={search}
          onFiltersChange={setFilters}
          onSearchChange={setSearch}
          assignees={board.assignees}
          reporters={reporters}
        />
        <span className="board__spacer" />
        {limit.limit >= 0 ? (
          <span className={`board__limit${limit.used >= limit.limit ? " is-full" : ""}`}>
            {limit.used} of {limit.limit} tickets
          </span>
        ) : null}
        {toolbar}
      </div>
      <div className="board__canvas">
        <TriageColumn
          tickets={shownTriage}
          total={triage.length}
          lists={lists}
          allTickets={board.tickets}
          today={today}
          isFiltered={isFiltered}
          onOpen={onOpen}
        />
        <DndContext
          sensors={dnd.sensors}
          collisionDetection={boardCollisions}
          measuring={{ droppable: { strategy: MeasuringStrategy.WhileDragging } }}
          accessibility={{
            announcements: dnd.announcements,
            screenReaderInstructions: SCREEN_READER_INSTRUCTIONS,
          }}
          {...dnd.handlers}
        >
          <SortableContext
            items={dnd.shownLists.map((list) => list.id)}
            strategy={horizontalListSortingStrategy}
          >
            {dnd.shownLists.map((list) => {
              const shown = dnd.shownColumns.get(list.id) ?? [];
              return (
                <BoardColumn
                  key={list.id}
                  list={list}
                  tickets={shown}
                  total={allColumns.get(list.id)?.length ?? 0}
                  today={today}
                  activeCardId={dnd.drag?.type === "card" ? dnd.drag.activeId : null}
                  isListDragging={isListDragging}
                  isFiltered={isFiltered}
                  onOpen={onOpen}
                />
              );
            })}
          </SortableContext>
          <DragOverlay dropAnimation={null}>
            {activeCard ? (
              <TicketCardView ticket={activeCard} today={today} className="is-overlay" />
            ) : activeList ? (
              <div className="board-column board-column--overlay">
                <header className="board-column__head">
                  <h2 className="board-column__title board-column__title--static">{activeList.title}</h2>
                  <span className="board-column__count">{allColumns.get(activeList.id)?.length ?? 0}</span>
                </header>
              </div>
            ) : null}
          </DragOverlay>
        </DndContext>
        {lists.length === 0 ? (
          <div className="board__empty empty-state">
            <Columns3 size={28} aria-hidden className="empty-state__icon" />
            <h2 className="empty-state__title">No lists yet</h2>
            <p className="empty-state__text">
              {board.abilities.createList
                ? "Lists hold the tickets as they move along — for example To do, Doing and Done."
                : "The lists of this board will show here."}
            </p>
            {board.abilities.createList ? (
              <button
                type="button"
                className="btn btn--primary"
                disabled={createList.isPending}
                onClick={() => createList.mutate(undefined)}
              >
                <Plus size={16} aria-hidden /> Add a list
              </button>
            ) : null}
          </div>
        ) : board.abilities.createList ? (
          <button
            type="button"
            className="board__add-list"
            disabled={createList.isPending}
            onClick={() => createList.mutate(undefined)}
          >
            <Plus size={16} aria-hidden /> {createList.isPending ? "Adding..." : "Add list"}
          </button>
        ) : null}
      </div>
    </div>
  );
}

function BoardSkeleton() {
  return (
    <div className="board" role="status" aria-live="polite">
      <span className="visually-hidden">Loading the board...</span>
      <div className="board__toolbar board__toolbar--skeleton" aria-hidden>
        <span className="skeleton skeleton--search" />
        <span className="skeleton skeleton--select" />
        <span className="skeleton skeleton--select" />
      </div>
      <div className="board__canvas" aria-hidden>
        {[3, 2, 4].map((count, column) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed placeholder
          <div key={column} className="board-column board-column--skeleton">
            <span className="skeleton skeleton--title" />
            {Array.from({ length: count }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed placeholder
              <span key={index} className="skeleton skeleton--card" />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
