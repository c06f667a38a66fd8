import type { InspectChange } from "@redline/shared";
import { describe, expect, it } from "vitest";
import type { PolicyActor } from "../../lib/policy.ts";
import { parsePolicyTable, rowCases } from "../../testing/policy-table.ts";
import {
  authorizeInspect,
  canInspect,
  type InspectAction,
  type InspectTarget,
  withInspectAbilities,
} from "./inspect.policy.ts";

const actors: Record<string, PolicyActor> = {
  owner: { userId: "u", access: "owner", isGuest: false },
  editor: { userId: "u", access: "edit", isGuest: false },
  commenter: { userId: "u", access: "comment", isGuest: false },
  viewer: { userId: "u", access: "view", isGuest: false },
  "link guest": { userId: null, access: "comment", isGuest: true },
  outsider: { userId: "u", access: null, isGuest: false },
};

const shown: InspectTarget = { linkShowsEdits: true };
const columns: [string, InspectAction, InspectTarget][] = [
  ["read", "inspect.read", {}],
  ["read, link shows edits", "inspect.read", shown],
  ["create", "inspect.create", {}],
  ["resolve", "inspect.resolve", {}],
  ["hide", "inspect.hide", {}],
  ["delete", "inspect.delete", {}],
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
      expect(canInspect(actors[row.actor]!, action, target)).toBe(expected);
    });
  });

  it("tells a guest the link hides edits (403), and an outsider nothing (404)", () => {
    expect(() => authorizeInspect(actors["link guest"]!, "inspect.read", { linkShowsEdits: false })).toThrow(
      expect.objectContaining({ statusCode: 403, code: "link-edits-off" }),
    );
    expect(() => authorizeInspect(actors.outsider!, "inspect.read")).toThrow(
      expect.objectContaining({ statusCode: 404 }),
    );
    expect(() => authorizeInspect(actors.viewer!, "inspect.delete")).toThrow(
      expect.objectContaining({ statusCode: 403 }),
    );
  });

  it("sends each reader what they may do with a change", () => {
    const change = { id: "c" } as InspectChange;
    expect(withInspectAbilities(actors.editor!, change).abilities).toEqual({
      resolve: true,
      hide: true,
      delete: true,
    });
    expect(withInspectAbilities(actors.viewer!, change).abilities).toEqual({
      resolve: false,
      hide: false,
      delete: false,
    });
  });
});
