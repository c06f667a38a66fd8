import type { InspectChange } from "@redline/shared";
import { describe, expect, it } from "vitest";
import type { PolicyActor } from "../../lib/policy.ts";
import { parsePolicyTable, rowCases } from "../../testing/policy-table.ts";
import {
  authorizeChange,
  type ChangeAction,
  type ChangeTarget,
  canChange,
  withChangeAbilities,
} from "./changes.policy.ts";

const actors: Record<string, PolicyActor> = {
  owner: { userId: "u", access: "owner", isGuest: false },
  editor: { userId: "u", access: "edit", isGuest: false },
  commenter: { userId: "u", access: "comment", isGuest: false },
  viewer: { userId: "u", access: "view", isGuest: false },
  "link guest": { userId: null, access: "comment", isGuest: true },
  outsider: { userId: "u", access: null, isGuest: false },
};

const shown: ChangeTarget = { linkShowsEdits: true };
const columns: [string, ChangeAction, ChangeTarget][] = [
  ["read", "changes.read", {}],
  ["read, link shows edits", "changes.read", shown],
  ["create", "changes.create", {}],
  ["resolve", "changes.resolve", {}],
  ["hide", "changes.hide", {}],
  ["delete", "changes.delete", {}],
];

const TABLE = `
owner      ✓ ✓ ✓ ✓ ✓ ✓
editor     ✓ ✓ ✓ ✓ ✓ ✓
commenter  ✓ ✓ · · · ·
viewer     ✓ ✓ · · · ·
link guest · ✓ · · · ·
outsider   · · · · · ·
`;

describe("inspect changes policy", () => {
  const rows = parsePolicyTable(TABLE, columns.length);

  it("covers every actor", () => {
    expect(rows.map((row) => row.actor).sort()).toEqual(Object.keys(actors).sort());
  });

  describe.each(rows)("$actor", (row) => {
    it.each(rowCases(row, columns))("$column.0 → $expected", ({ column: [, action, target], expected }) => {
      expect(canChange(actors[row.actor]!, action, target)).toBe(expected);
    });
  });

  it("tells a guest the link hides edits (403), and an outsider nothing (404)", () => {
    expect(() => authorizeChange(actors["link guest"]!, "changes.read", { linkShowsEdits: false })).toThrow(
      expect.objectContaining({ statusCode: 403, code: "link-edits-off" }),
    );
    expect(() => authorizeChange(actors.outsider!, "changes.read")).toThrow(
      expect.objectContaining({ statusCode: 404 }),
    );
    expect(() => authorizeChange(actors.viewer!, "changes.delete")).toThrow(
      expect.objectContaining({ statusCode: 403 }),
    );
  });

  it("sends each reader what they may do with a change", () => {
    const change = { id: "c" } as InspectChange;
    expect(withChangeAbilities(actors.editor!, change).abilities).toEqual({
      resolve: true,
      hide: true,
      delete: true,
    });
    expect(withChangeAbilities(actors.viewer!, change).abilities).toEqual({
      resolve: false,
      hide: false,
      delete: false,
    });
  });
});
