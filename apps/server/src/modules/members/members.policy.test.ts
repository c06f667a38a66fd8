import { describe, expect, it } from "vitest";
import type { PolicyActor } from "../../lib/policy.ts";
import { parsePolicyTable, rowCases } from "../../testing/policy-table.ts";
import { canMember, type MemberAction, type MemberTarget } from "./members.policy.ts";

const ME = "me";
const actors: Record<string, PolicyActor> = {
  owner: { userId: ME, access: "owner", isGuest: false },
  editor: { userId: ME, access: "edit", isGuest: false },
  commenter: { userId: ME, access: "comment", isGuest: false },
  viewer: { userId: ME, access: "view", isGuest: false },
  outsider: { userId: ME, access: null, isGuest: false },
};

const other: MemberTarget = { userId: "other", isOwner: false, isPending: false };
const invited: MemberTarget = { userId: null, isOwner: false, isPending: true };
const self: MemberTarget = { userId: ME, isOwner: false, isPending: false };
const theOwner: MemberTarget = { userId: "boss", isOwner: true, isPending: false };
const onBugBoard: MemberTarget = { ...other, isBugTracking: true };
const columns: [string, MemberAction, MemberTarget][] = [
  ["read", "members.read", {}],
  ["share", "members.add", {}],
  ["public link", "sharing.update", {}],
  ["change other", "members.update", other],
  ["change invited", "members.update", invited],
  ["change self", "members.update", self],
  ["change owner", "members.update", theOwner],
  ["remove other", "members.remove", other],
  ["remove owner", "members.remove", theOwner],
  ["leave", "members.leave", self],
  ["make other owner", "projects.transfer", other],
  ["make invited owner", "projects.transfer", invited],
  ["approver: other", "approvers.manage", other],
  ["approver: invited", "approvers.manage", invited],
  ["approver on a bug project", "approvers.manage", onBugBoard],
];

const TABLE = `
owner     ✓ ✓ ✓ ✓ ✓ · · ✓ · ✓ ✓ · ✓ · ·
editor    ✓ ✓ ✓ ✓ ✓ · · ✓ · ✓ · · ✓ · ·
commenter ✓ · · · · · · · · ✓ · · · · ·
viewer    ✓ · · · · · · · · ✓ · · · · ·
outsider  · · · · · · · · · · · · · · ·
`;

describe("members policy", () => {
  const rows = parsePolicyTable(TABLE, columns.length);

  it("covers every actor", () => {
    expect(rows.map((row) => row.actor).sort()).toEqual(Object.keys(actors).sort());
  });

  describe.each(rows)("$actor", (row) => {
    it.each(rowCases(row, columns))("$column.0 → $expected", ({ column: [, action, target], expected }) => {
      expect(canMember(actors[row.actor]!, action, target)).toBe(expected);
    });
  });
});
