import { sortKeyBetween } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { withoutTicket, withTicket } from "./board-cache.ts";
import { list, board as makeBoard, ticket } from "./board-fixtures.ts";
import {
  addDays,
  bySortKey,
  columnsAfter,
  isOverdue,
  keepUnchangedColumns,
  matchesFilters,
  matchesSearch,
  moveInArray,
  planMove,
  reportersOf,
  ticketsByList,
  triageTickets,
} from "./board-rules.ts";

// Thursday 26 November 2026.
const TODAY = "2026-11-26";

describe("the board's order", () => {
  it("sorts by key in code-unit order, then by id", () => {
    const items = [
      { id: "2", sortKey: "a1" },
      { id: "1", sortKey: "a1" },
      { id: "3", sortKey: "Zz" },
      { id: "4", sortKey: "a0V" },
    ];
    expect(items.sort(bySortKey).map((item) => item.id)).toEqual(["3", "4", "1", "2"]);
  });

  it("puts every list's tickets in their column and widget reports in triage, newest first", () => {
    const columns = ticketsByList({
      lists: [{ id: "a" }, { id: "b" }, { id: "empty" }] as never,
      tickets: [
        ticket("x", { listId: "b", sortKey: "a2" }),
        ticket("y", { listId: "b", sortKey: "a1" }),
        ticket("z", { listId: "a" }),
        ticket("t", { listId: null, intake: "triage" }),
      ],
    });
    expect([...columns].map(([id, tickets]) => [id, tickets.map((t) => t.id)])).toEqual([
      ["a", ["z"]],
      ["b", ["y", "x"]],
      ["empty", []],
    ]);
    const older = ticket("old", { listId: null, intake: "triage", createdAt: "2026-11-01T00:00:00Z" });
    const newer = ticket("new", { listId: null, intake: "triage", createdAt: "2026-11-02T00:00:00Z" });
    expect(triageTickets([older, ticket("in-list"), newer]).map((t) => t.id)).toEqual(["new", "old"]);
  });
});

describe("columns kept between renders", () => {
  it("keeps a column's array when it holds the same tickets, so only changed columns re-render", () => {
    const [x, y, z] = [ticket("x"), ticket("y", { listId: "b" }), ticket("z", { listId: "b" })];
    const before = new Map([
      ["a", [x]],
      ["b", [y, z]],
    ]);
    const changedZ = { ...z, title: "Changed" };
    const after = keepUnchangedColumns(
      before,
      new Map([
        ["a", [x]],
        ["b", [y, changedZ]],
      ]),
    );
    expect(after.get("a")).toBe(before.get("a"));
    expect(after.get("b")).not.toBe(before.get("b"));
    expect(after.get("b")).toEqual([y, changedZ]);
  });
});

describe("columns after a change", () => {
  const lists = [list("a", "a0"), list("b", "a1"), list("c", "a2")];
  const tickets = Array.from({ length: 90 }, (_, index) =>
    ticket(`t${index}`, { listId: lists[index % 3]!.id, sortKey: `a${(index * 37) % 90}` }),
  );
  const start = makeBoard({ lists, tickets });
  const ids = (columns: Map<string, { id: string }[]>) =>
    [...columns].map(([id, column]) => [id, column.map((t) => t.id)]);

  it("moves a changed ticket between its columns, keeping the columns it neither leaves nor joins", () => {
    const before = { board: start, columns: ticketsByList(start) };
    const moved = { ...tickets[0]!, listId: "b", sortKey: "a4V" };
    const after = withTicket(start, moved);
    const columns = columnsAfter(before, after);
    expect(ids(columns)).toEqual(ids(ticketsByList(after)));
    expect(columns.get("c")).toBe(before.columns.get("c"));
    expect(columns.get("a")).not.toBe(before.columns.get("a"));
    expect(columns.get("b")).toContain(moved);
  });

  it("gives the same columns as grouping anew for edits, additions, deletions and a changed list", () => {
    let before = { board: start, columns: ticketsByList(start) };
    const steps = [
      (b: typeof start) => withTicket(b, { ...b.tickets[5]!, title: "Edited" }),
      (b: typeof start) => withTicket(b, ticket("new", { listId: "c", sortKey: "a5" })),
      (b: typeof start) => withTicket(b, ticket("same-key", { listId: "c", sortKey: "a5" })),
      (b: typeof start) => withoutTicket(b, "t7"),
      (b: typeof start) => withTicket(b, { ...b.tickets[9]!, intake: "rejected", listId: null }),
      (b: typeof start) => ({ ...b, tickets: b.tickets.map((t) => ({ ...t, title: `${t.title}!` })) }),
      (b: typeof start) => ({ ...b, lists: [...b.lists, list("d", "a3")] }),
    ];
    for (const step of steps) {
      const next = step(before.board);
      const columns = columnsAfter(before, next);
      expect(ids(columns)).toEqual(ids(ticketsByList(next)));
      before = { board: next, columns };
    }
    expect(columnsAfter(before, before.board)).toBe(before.columns);
  });
});

describe("filters and search", () => {
  it("searches the text in the title or description, and the number with or without #", () => {
    const bug = ticket("s", { title: "Checkout button overlaps", description: "On Safari only", number: 42 });
    expect(matchesSearch(bug, "checkout")).toBe(true);
    expect(matchesSearch(bug, "  BUTTON overlaps ")).toBe(true);
    expect(matchesSearch(bug, "safari ONLY")).toBe(true);
    expect(matchesSearch(bug, "button safari")).toBe(false);
    expect(matchesSearch(bug, "#42")).toBe(true);
    expect(matchesSearch(bug, "42")).toBe(true);
    expect(matchesSearch(bug, "#4")).toBe(false);
    expect(matchesSearch(bug, "")).toBe(true);
  });

  it("filters by assignee, unassigned, reporter (guests by name) and resolved state", () => {
    const mine = ticket("m", { assignedTo: "u2" });
    const open = ticket("o");
    const guest = ticket("g", {
      isResolved: true,
      reporter: { uid: null, displayName: "Sam Guest", photoURL: null, isGuest: true },
    });
    const pick = (filters: Parameters<typeof matchesFilters>[1]) =>
      [mine, open, guest].filter((t) => matchesFilters(t, filters, TODAY)).map((t) => t.id);
    expect(pick({ assignee: "u2" })).toEqual(["m"]);
    expect(pick({ assignee: "none" })).toEqual(["o", "g"]);
    expect(pick({ reporter: "guest:Sam Guest" })).toEqual(["g"]);
    expect(pick({ reporter: "u1" })).toEqual(["m", "o"]);
    expect(pick({ resolved: "true" })).toEqual(["g"]);
    expect(pick({ resolved: "false", assignee: "none" })).toEqual(["o"]);
    expect(pick({})).toEqual(["m", "o", "g"]);
    expect(reportersOf([mine, open, guest]).map((entry) => entry.key)).toEqual(["u1", "guest:Sam Guest"]);
  });

  it("filters by due date: overdue (past and open), this week (today to a week from today), none", () => {
    const yesterday = ticket("y", { dueDate: "2026-11-25" });
    const doneLate = ticket("d", { dueDate: "2026-11-20", isResolved: true });
    const today = ticket("t", { dueDate: TODAY });
    const inAWeek = ticket("s", { dueDate: "2026-12-03" });
    const later = ticket("m", { dueDate: "2026-12-04" });
    const none = ticket("n");
    const all = [yesterday, doneLate, today, inAWeek, later, none];
    const pick = (due: "overdue" | "week" | "none") =>
      all.filter((t) => matchesFilters(t, { due }, TODAY)).map((t) => t.id);
    expect(pick("overdue")).toEqual(["y"]);
    expect(pick("week")).toEqual(["t", "s"]);
    expect(pick("none")).toEqual(["n"]);
    expect(isOverdue(doneLate, TODAY)).toBe(false);
    expect(addDays("2026-12-28", 7)).toBe("2027-01-04");
  });
});

describe("a move's neighbours and key", () => {
  const a = { id: "a", sortKey: "a0" };
  const b = { id: "b", sortKey: "a1" };
  const c = { id: "c", sortKey: "a2" };

  it("sends the neighbours' ids and shows the key between their keys", () => {
    // c dragged between a and b in the same list.
    const order = moveInArray([a, b, c], 2, 1);
    expect(order.map((item) => item.id)).toEqual(["a", "c", "b"]);
    const plan = planMove(order, "c", { containerId: "L", index: 2 }, { containerId: "L" });
    expect(plan).toEqual({ afterId: "a", beforeId: "b", sortKey: sortKeyBetween("a0", "a1") });
    expect(plan!.sortKey > "a0" && plan!.sortKey < "a1").toBe(true);
  });

  it("uses null for an end of the list, and an empty list gives the first key", () => {
    const moved = { id: "m", sortKey: "zz" };
    expect(planMove([moved, a, b], "m", { containerId: "X", index: 0 }, { containerId: "L" })).toEqual({
      afterId: null,
      beforeId: "a",
      sortKey: sortKeyBetween(null, "a0"),
    });
    expect(planMove([a, b, moved], "m", { containerId: "X", index: 0 }, { containerId: "L" })).toMatchObject({
      afterId: "b",
      beforeId: null,
    });
    expect(planMove([moved], "m", { containerId: "X", index: 3 }, { containerId: "L" })).toEqual({
      afterId: null,
      beforeId: null,
      sortKey: sortKeyBetween(null, null),
    });
  });

  it("is nothing when a card is dropped where it was, but a move when only the list changed", () => {
    expect(planMove([a, b, c], "b", { containerId: "L", index: 1 }, { containerId: "L" })).toBeNull();
    expect(planMove([a, b, c], "b", { containerId: "K", index: 1 }, { containerId: "L" })).not.toBeNull();
    expect(planMove([a, c], "b", { containerId: "L", index: 1 }, { containerId: "L" })).toBeNull();
  });
});
