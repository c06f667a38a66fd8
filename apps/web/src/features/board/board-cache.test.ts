import type { Board, TicketDetail } from "@redline/shared";
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { applyBoardEvent, boardKey, resyncBoard, ticketKey } from "./board-cache.ts";
import { board, list, ticket } from "./board-fixtures.ts";

function cache(initial: Board = board({ tickets: [ticket("t1"), ticket("t2", { listId: "b" })] })) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(boardKey("p1"), initial);
  const read = () => client.getQueryData<Board>(boardKey("p1"))!;
  return { client, read };
}

describe("realtime events written into the cached board", () => {
  it("adds a new ticket and replaces a changed one in place, with no request", () => {
    const { client, read } = cache();
    applyBoardEvent(client, "p1", {
      type: "tickets.changed",
      projectId: "p1",
      ticketId: "t3",
      ticket: ticket("t3", { listId: null, intake: "triage" }),
    });
    applyBoardEvent(client, "p1", {
      type: "tickets.changed",
      projectId: "p1",
      ticketId: "t1",
      ticket: ticket("t1", { listId: "b", sortKey: "a5", title: "Moved" }),
    });
    expect(read().tickets.map((t) => [t.id, t.listId, t.title])).toEqual([
      ["t1", "b", "Moved"],
      ["t2", "b", "Ticket t2"],
      ["t3", null, "Ticket t3"],
    ]);
    expect(client.isFetching()).toBe(0);
  });

  it("takes rejected and merged reports and deleted tickets off the board", () => {
    const { client, read } = cache();
    applyBoardEvent(client, "p1", {
      type: "tickets.changed",
      projectId: "p1",
      ticketId: "t1",
      ticket: ticket("t1", { listId: null, intake: "duplicate", duplicateOf: "t2" }),
    });
    applyBoardEvent(client, "p1", { type: "tickets.deleted", projectId: "p1", ticketId: "t2" });
    expect(read().tickets).toEqual([]);
  });

  it("adds, renames and moves lists; a deleted list takes its tickets with it", () => {
    const { client, read } = cache();
    applyBoardEvent(client, "p1", {
      type: "lists.changed",
      projectId: "p1",
      listId: "c",
      list: list("c", "a2"),
    });
    applyBoardEvent(client, "p1", {
      type: "lists.changed",
      projectId: "p1",
      listId: "a",
      list: list("a", "a3", { title: "Done" }),
    });
    applyBoardEvent(client, "p1", { type: "lists.changed", projectId: "p1", listId: "b" });
    expect(read().lists.map((l) => [l.id, l.title, l.sortKey])).toEqual([
      ["a", "Done", "a3"],
      ["c", "C", "a2"],
    ]);
    expect(read().tickets.map((t) => t.id)).toEqual(["t1"]);
  });

  it("keeps an open ticket's thread when its card changes, and rereads it when the thread did", () => {
    const { client } = cache();
    const detail = { ...ticket("t1"), thread: [{ id: "e1" }] } as unknown as TicketDetail;
    client.setQueryData(ticketKey("t1"), detail);
    applyBoardEvent(client, "p1", {
      type: "tickets.changed",
      projectId: "p1",
      ticketId: "t1",
      ticket: ticket("t1", { isResolved: true }),
    });
    const after = client.getQueryData<TicketDetail>(ticketKey("t1"))!;
    expect(after.isResolved).toBe(true);
    expect(after.thread).toEqual([{ id: "e1" }]);
    expect(client.getQueryState(ticketKey("t1"))!.isInvalidated).toBe(false);

    applyBoardEvent(client, "p1", {
      type: "tickets.changed",
      projectId: "p1",
      ticketId: "t1",
      ticket: ticket("t1", { commentCount: 1 }),
    });
    expect(client.getQueryState(ticketKey("t1"))!.isInvalidated).toBe(true);
  });

  it("rereads an open ticket whose thread waits on a video when its card changes", () => {
    const { client } = cache();
    const detail = {
      ...ticket("t1"),
      thread: [{ id: "e1", videoStatus: "processing" }],
    } as unknown as TicketDetail;
    client.setQueryData(ticketKey("t1"), detail);
    // The video job's `ticket.changed`: the card reads as before (same comment count).
    applyBoardEvent(client, "p1", {
      type: "tickets.changed",
      projectId: "p1",
      ticketId: "t1",
      ticket: ticket("t1"),
    });
    expect(client.getQueryState(ticketKey("t1"))!.isInvalidated).toBe(true);
  });

  it("refetches the board when an event could not carry its ticket, and on a resync", () => {
    const { client } = cache();
    applyBoardEvent(client, "p1", { type: "tickets.changed", projectId: "p1", ticketId: "t9" });
    expect(client.getQueryState(boardKey("p1"))!.isInvalidated).toBe(true);
    const other = cache();
    other.client.setQueryData(ticketKey("t1"), { ...ticket("t1"), thread: [] });
    resyncBoard(other.client, "p1");
    expect(other.client.getQueryState(boardKey("p1"))!.isInvalidated).toBe(true);
    expect(other.client.getQueryState(ticketKey("t1"))!.isInvalidated).toBe(true);
  });

  it("ignores events of other features and boards it does not hold", () => {
    const { client, read } = cache();
    const before = read();
    applyBoardEvent(client, "p1", { type: "projects.changed", projectId: "p1" });
    expect(read()).toBe(before);
    const empty = new QueryClient();
    applyBoardEvent(empty, "p1", {
      type: "tickets.changed",
      projectId: "p1",
      ticketId: "t1",
      ticket: ticket("t1"),
    });
    expect(empty.getQueryData(boardKey("p1"))).toBeUndefined();
  });
});
