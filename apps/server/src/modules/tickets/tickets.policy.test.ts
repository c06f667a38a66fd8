import type { TicketDetail } from "@redline/shared";
import { describe, expect, it } from "vitest";
import type { PolicyActor } from "../../lib/policy.ts";
import { parsePolicyTable, rowCases } from "../../testing/policy-table.ts";
import {
  boardAbilities,
  canTicket,
  type TicketAction,
  type TicketTarget,
  withTicketAbilities,
} from "./tickets.policy.ts";

const ME = "user-me";
const actors: Record<string, PolicyActor> = {
  owner: { userId: ME, access: "owner", isGuest: false },
  editor: { userId: ME, access: "edit", isGuest: false },
  commenter: { userId: ME, access: "comment", isGuest: false },
  viewer: { userId: ME, access: "view", isGuest: false },
  // An expired project reaches the policy as view access (projects.load.ts): read-only, even its owner.
  "owner of an expired project": { userId: ME, access: "view", isGuest: false },
  "link guest (comments on)": { userId: null, access: "comment", isGuest: true },
  "link guest (view only)": { userId: null, access: "view", isGuest: true },
  outsider: { userId: ME, access: null, isGuest: false },
};

const mine: TicketTarget = { authorId: ME };
const theirs: TicketTarget = { authorId: "someone-else" };
const columns: [string, TicketAction, TicketTarget][] = [
  ["read", "tickets.read", {}],
  ["create", "tickets.create", {}],
  ["update", "tickets.update", {}],
  ["move", "tickets.move", {}],
  ["assign", "tickets.assign", {}],
  ["resolve", "tickets.resolve", {}],
  ["triage", "tickets.triage", {}],
  ["delete", "tickets.delete", {}],
  ["reply", "tickets.reply", {}],
  ["attach", "tickets.attach", {}],
  ["edit own entry", "ticketEntries.edit", mine],
  ["edit other's", "ticketEntries.edit", theirs],
  ["delete own entry", "ticketEntries.delete", mine],
  ["delete other's", "ticketEntries.delete", theirs],
  ["create list", "lists.create", {}],
  ["update list", "lists.update", {}],
  ["delete list", "lists.delete", {}],
  ["widget", "widget.manage", {}],
];

// Each row: the actor, then one mark per column above (✓ allowed, · refused).
const TABLE = `
owner                       ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ · ✓ ✓ ✓ ✓ ✓ ✓
editor                      ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ · ✓ ✓ ✓ ✓ ✓ ✓
commenter                   ✓ · · · · · · · ✓ ✓ ✓ · ✓ · · · · ·
viewer                      ✓ · · · · · · · · · · · · · · · · ·
owner of an expired project ✓ · · · · · · · · · · · · · · · · ·
link guest (comments on)    · · · · · · · · · · · · · · · · · ·
link guest (view only)      · · · · · · · · · · · · · · · · · ·
outsider                    · · · · · · · · · · · · · · · · · ·
`;

const rows = parsePolicyTable(TABLE, columns.length);

describe("tickets policy", () => {
  it("covers every actor", () => {
    expect(rows.map((row) => row.actor).sort()).toEqual(Object.keys(actors).sort());
  });

  describe.each(rows)("$actor", (row) => {
    it.each(rowCases(row, columns))("$column.0 → $expected", ({ column: [, action, target], expected }) => {
      expect(canTicket(actors[row.actor]!, action, target)).toBe(expected);
    });
  });

  it("gives each reader their own abilities on the same ticket and its entries", () => {
    const ticket = {
      id: "t1",
      thread: [
        { id: "e1", userId: ME, abilities: { edit: false, delete: false } },
        { id: "e2", userId: "someone-else", abilities: { edit: false, delete: false } },
      ],
    } as unknown as TicketDetail;
    const asCommenter = withTicketAbilities(actors.commenter!, ticket);
    expect(asCommenter.abilities).toMatchObject({ reply: true, attach: true, update: false, triage: false });
    expect(asCommenter.thread.map((entry) => entry.abilities)).toEqual([
      { edit: true, delete: true },
      { edit: false, delete: false },
    ]);
    const asEditor = withTicketAbilities(actors.editor!, ticket);
    expect(asEditor.thread.map((entry) => entry.abilities.delete)).toEqual([true, true]);
    expect(boardAbilities(actors.viewer!)).toEqual({
      createList: false,
      createTicket: false,
      triage: false,
      manageWidget: false,
    });
  });
});
