import { describe, expect, it } from "vitest";
import { parsePolicyTable, rowCases } from "../../testing/policy-table.ts";
import { canTeam, type TeamAction, type TeamActor, type TeamResource, teamActor } from "./teams.policy.ts";

const ME = "me";
const actors: Record<string, TeamActor> = {
  owner: teamActor(ME, "owner"),
  manager: teamActor(ME, "manager"),
  member: teamActor(ME, "member"),
  collaborator: teamActor(ME, "collaborator"),
  outsider: teamActor(ME, null),
};

const team: TeamResource = { isDisabled: false };
const disabled: TeamResource = { isDisabled: true };
const about = (userId: string | null, isOwner = false, base = team): TeamResource => ({
  ...base,
  member: { userId, isOwner },
});
const other = about("other");
const invited = about(null);
const theOwner = about("boss", true);
const self = about(ME);

const columns: [string, TeamAction, TeamResource][] = [
  ["read", "teams.read", team],
  ["rename", "teams.rename", team],
  ["add members", "teams.addMembers", team],
  ["change other", "teams.changeRole", other],
  ["change invited", "teams.changeRole", invited],
  ["change owner", "teams.changeRole", theOwner],
  ["change self", "teams.changeRole", self],
  ["remove other", "teams.removeMember", other],
  ["remove owner", "teams.removeMember", theOwner],
  ["remove self", "teams.removeMember", self],
  ["remove collaborator", "teams.removeCollaborator", other],
  ["leave", "teams.leave", self],
  ["disabled: read", "teams.read", disabled],
  ["disabled: rename", "teams.rename", disabled],
  ["disabled: add", "teams.addMembers", disabled],
  ["disabled: change", "teams.changeRole", about("other", false, disabled)],
  ["disabled: remove", "teams.removeMember", about("other", false, disabled)],
  ["disabled: remove collaborator", "teams.removeCollaborator", about("other", false, disabled)],
  ["disabled: leave", "teams.leave", about(ME, false, disabled)],
  ["brand", "teams.brand", team],
  ["domain", "teams.domain", team],
  ["disabled: brand", "teams.brand", disabled],
  ["disabled: domain", "teams.domain", disabled],
];

// biome-ignore format: aligned as a table
const TABLE = `
owner        ✓ ✓ ✓ ✓ ✓ · · ✓ · · ✓ · ✓ · · · · · · ✓ ✓ · ·
manager      ✓ ✓ ✓ ✓ ✓ · · ✓ · · ✓ ✓ ✓ · · · · · ✓ ✓ ✓ · ·
member       ✓ · · · · · · · · · · ✓ ✓ · · · · · ✓ · · · ·
collaborator ✓ · · · · · · · · · · ✓ ✓ · · · · · ✓ · · · ·
outsider     · · · · · · · · · · · · · · · · · · · · · · ·
`;

describe("teams policy", () => {
  const rows = parsePolicyTable(TABLE, columns.length);

  it("covers every actor", () => {
    expect(rows.map((row) => row.actor).sort()).toEqual(Object.keys(actors).sort());
  });

  describe.each(rows)("$actor", (row) => {
    it.each(rowCases(row, columns))("$column.0 → $expected", ({ column: [, action, target], expected }) => {
      expect(canTeam(actors[row.actor]!, action, target)).toBe(expected);
    });
  });
});
