/**
 * Drag and drop on the board (@dnd-kit): cards within and between lists, and lists among themselves, by
 * pointer and by keyboard, with spoken announcements. While a card is dragged the columns are a local
 * copy it moves through; on drop its neighbours' ids make the one move request and the cache shows the
 * move at once (board-queries.ts rolls it back if refused). The dropped order is kept on screen until the
 * cache has it, so nothing jumps back for a frame.
 */
import {
  type Announcements,
  type CollisionDetection,
  closestCenter,
  closestCorners,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import type { Board, BrowseList, Ticket } from "@redline/shared";
import { useMemo, useRef, useState } from "react";
import { type MovePlan, moveInArray, planMove } from "./board-rules.ts";

export type Columns = Map<string, Ticket[]>;

interface CardDrag {
  type: "card";
  activeId: string;
  origin: { containerId: string; index: number };
  columns: Columns;
}

interface ListDrag {
  type: "list";
  activeId: string;
  origin: { index: number };
  lists: BrowseList[];
}

type Drag = CardDrag | ListDrag;

type Kind = "card" | "cards" | "list";
const kindOf = (data: { current?: Record<string, unknown> | undefined }): Kind | undefined =>
  data.current?.type as Kind | undefined;

/** Lists only collide with lists; cards with cards and lists' card areas (preferring a card). */
export const boardCollisions: CollisionDetection = (args) => {
  const isList = kindOf(args.active.data) === "list";
  const droppableContainers = args.droppableContainers.filter((container) =>
    isList ? kindOf(container.data) === "list" : kindOf(container.data) !== "list",
  );
  const scoped = { ...args, droppableContainers };
  if (isList) return closestCenter(scoped);
  const within = pointerWithin(scoped);
  if (within.length > 0) {
    const cards = within.filter(
      (collision) => kindOf(collision.data?.droppableContainer?.data ?? {}) === "card",
    );
    return cards.length > 0
      ? closestCenter({
          ...scoped,
          droppableContainers: droppableContainers.filter((c) => cards.some((card) => card.id === c.id)),
        })
      : within;
  }
  return closestCorners(scoped);
};

/**
 * Arrow keys for a card: left and right go to another list (its cards or its empty area), up and down
 * stay among the card's own list — sortable's default would also pick the card's own list area, a few
 * pixels to its left, and never leave it.
 */
export const boardKeyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  const { context } = args;
  const data = context.active?.data.current;
  if (data?.type !== "card" || typeof data.listId !== "string")
    return sortableKeyboardCoordinates(event, args);
  const isAcross = event.code === "ArrowLeft" || event.code === "ArrowRight";
  const all = context.droppableContainers;
  const keep = (entry: (typeof all extends Map<unknown, infer V> ? V : never) | undefined) => {
    const target = entry?.data.current;
    if (!target) return false;
    const isSameList = target.listId === data.listId;
    return isAcross ? !isSameList && target.type !== "list" : isSameList && target.type === "card";
  };
  // sortableKeyboardCoordinates reads only these two.
  const scoped = {
    getEnabled: () => all.getEnabled().filter(keep),
    get: (id: Parameters<typeof all.get>[0]) => all.get(id),
  } as unknown as typeof all;
  return sortableKeyboardCoordinates(event, {
    ...args,
    context: { ...context, droppableContainers: scoped },
  });
};

/** Which list holds a card in these columns (or the list of a `cards:` area). */
function locate(columns: Columns, id: UniqueIdentifier): string | null {
  const key = String(id);
  if (key.startsWith("cards:")) return key.slice("cards:".length);
  for (const [listId, tickets] of columns) if (tickets.some((ticket) => ticket.id === key)) return listId;
  return null;
}

export function useBoardDnd({
  board,
  lists,
  columns,
  onMoveTicket,
  onMoveList,
}: {
  board: Board | undefined;
  /** Lists in board order. */
  lists: BrowseList[];
  /** The cards shown in each list (filtered), in order. */
  columns: Columns;
  onMoveTicket(ticket: Ticket, listId: string, plan: MovePlan): void;
  onMoveList(list: BrowseList, plan: MovePlan): void;
}) {
  const [drag, setDrag] = useState<Drag | null>(null);
  const [settled, setSettled] = useState<{ source: Board; columns: Columns; lists: BrowseList[] } | null>(
    null,
  );
  const latest = useRef<Drag | null>(null);
  latest.current = drag;
  // The last drag as it ended, for the drop's announcement (made after the drag state is cleared).
  const last = useRef<Drag | null>(null);
  if (drag) last.current = drag;

  const isSettled = settled !== null && settled.source === board;
  const shownColumns = drag?.type === "card" ? drag.columns : isSettled ? settled.columns : columns;
  const shownLists = drag?.type === "list" ? drag.lists : isSettled ? settled.lists : lists;

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: boardKeyboardCoordinates }),
  );

  const titleOfList = (listId: string | null) =>
    shownLists.find((list) => list.id === listId)?.title ?? "a list";

  const begin = (next: Drag) => {
    latest.current = next;
    last.current = next;
    setDrag(next);
  };

  const handleDragStart = ({ active }: DragStartEvent) => {
    const id = String(active.id);
    if (kindOf(active.data) === "list") {
      begin({
        type: "list",
        activeId: id,
        origin: { index: lists.findIndex((list) => list.id === id) },
        lists,
      });
      return;
    }
    const containerId = locate(columns, id);
    if (!containerId) return;
    const index = columns.get(containerId)?.findIndex((ticket) => ticket.id === id) ?? -1;
    begin({ type: "card", activeId: id, origin: { containerId, index }, columns });
  };

  const handleDragOver = ({ active, over }: DragOverEvent) => {
    const current = latest.current;
    if (current?.type !== "card" || !over) return;
    const from = locate(current.columns, active.id);
    const to =
      kindOf(over.data) === "cards"
        ? (over.data.current?.listId as string)
        : locate(current.columns, over.id);
    if (!from || !to || from === to) return;
    const source = current.columns.get(from) ?? [];
    const target = current.columns.get(to) ?? [];
    const moving = source.find((ticket) => ticket.id === active.id);
    if (!moving) return;
    let index = target.length;
    if (kindOf(over.data) === "card") {
      const overIndex = target.findIndex((ticket) => ticket.id === over.id);
      const translated = active.rect.current.translated;
      const isBelow = translated ? translated.top > over.rect.top + over.rect.height / 2 : false;
      index = overIndex < 0 ? target.length : overIndex + (isBelow ? 1 : 0);
    }
    const next = new Map(current.columns);
    next.set(
      from,
      source.filter((ticket) => ticket.id !== active.id),
    );
    next.set(to, [...target.slice(0, index), { ...moving, listId: to }, ...target.slice(index)]);
    begin({ ...current, columns: next });
  };

  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    const current = latest.current;
    last.current = current;
    latest.current = null;
    setDrag(null);
    if (!current || !board) return;
    if (current.type === "list") {
      const from = current.lists.findIndex((list) => list.id === active.id);
      const to = over ? current.lists.findIndex((list) => list.id === over.id) : from;
      if (from < 0 || to < 0) return;
      const order = moveInArray(current.lists, from, to);
      const plan = planMove(
        order,
        current.activeId,
        { containerId: null, index: current.origin.index },
        { containerId: null },
      );
      const list = lists.find((entry) => entry.id === current.activeId);
      if (!plan || !list) return;
      setSettled({
        source: board,
        columns,
        lists: order.map((entry) => (entry.id === list.id ? { ...entry, sortKey: plan.sortKey } : entry)),
      });
      onMoveList(list, plan);
      return;
    }
    const containerId = locate(current.columns, active.id);
    if (!containerId) return;
    let order = current.columns.get(containerId) ?? [];
    if (over && over.id !== active.id && kindOf(over.data) === "card") {
      const from = order.findIndex((ticket) => ticket.id === active.id);
      const to = order.findIndex((ticket) => ticket.id === over.id);
      if (from >= 0 && to >= 0) order = moveInArray(order, from, to);
    }
    const plan = planMove(order, current.activeId, current.origin, { containerId });
    const ticket = board.tickets.find((entry) => entry.id === current.activeId);
    if (!plan || !ticket) return;
    const next = new Map(current.columns);
    next.set(
      containerId,
      order.map((entry) =>
        entry.id === ticket.id ? { ...entry, listId: containerId, sortKey: plan.sortKey } : entry,
      ),
    );
    setSettled({ source: board, columns: next, lists });
    onMoveTicket(ticket, containerId, plan);
  };

  const handleDragCancel = () => {
    latest.current = null;
    setDrag(null);
  };

  const announcements = useMemo<Announcements>(() => {
    const describe = (id: UniqueIdentifier) => {
      const key = String(id);
      const list = (latest.current?.type === "list" ? latest.current.lists : lists).find(
        (entry) => entry.id === key,
      );
      if (list) return `list ${list.title}`;
      const ticket = board?.tickets.find((entry) => entry.id === key);
      return ticket ? `ticket #${ticket.number}, ${ticket.title}` : "item";
    };
    const where = (activeId: UniqueIdentifier, overId: UniqueIdentifier | undefined) => {
      const current = last.current;
      if (!current || overId === undefined) return null;
      if (current.type === "list") {
        const index = current.lists.findIndex((list) => list.id === overId);
        return index < 0 ? null : `position ${index + 1} of ${current.lists.length}`;
      }
      const listId = locate(current.columns, overId) ?? locate(current.columns, activeId);
      if (!listId) return null;
      const order = current.columns.get(listId) ?? [];
      const index = order.findIndex((ticket) => ticket.id === overId);
      const position = index < 0 ? order.length : index + 1;
      return `position ${position} of ${order.length} in list ${titleOfList(listId)}`;
    };
    return {
      onDragStart: ({ active }) => `Picked up ${describe(active.id)}.`,
      onDragOver: ({ active, over }) => {
        const place = where(active.id, over?.id);
        return place
          ? `${describe(active.id)} is at ${place}.`
          : `${describe(active.id)} is not over a list.`;
      },
      onDragEnd: ({ active, over }) => {
        const place = where(active.id, over?.id);
        return place
          ? `Dropped ${describe(active.id)} at ${place}.`
          : `Dropped ${describe(active.id)}; it stays where it was.`;
      },
      onDragCancel: ({ active }) => `Moving ${describe(active.id)} was cancelled; it is back where it was.`,
    };
    // biome-ignore lint/correctness/useExhaustiveDependencies: reads the latest drag through its ref
  }, [board, lists, titleOfList]);

  return {
    sensors,
    drag,
    shownColumns,
    shownLists,
    announcements,
    handlers: {
      onDragStart: handleDragStart,
      onDragOver: handleDragOver,
      onDragEnd: handleDragEnd,
      onDragCancel: handleDragCancel,
    },
  };
}

export const SCREEN_READER_INSTRUCTIONS = {
  draggable:
    "To move a ticket or a list, focus its grip and press Space or Enter. Use the arrow keys to move it — left and right between lists, up and down within one — then Space or Enter to drop it there, or Escape to cancel.",
};
