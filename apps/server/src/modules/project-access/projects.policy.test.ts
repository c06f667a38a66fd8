import { describe, expect, it } from "vitest";
import type { PolicyActor } from "../../lib/policy.ts";
import { parsePolicyTable, rowCases } from "../../testing/policy-table.ts";
// The abilities an answer carries are composed above the policies (projects.presenter.ts); checked here
// against this table.
import { projectAbilities } from "../projects/projects.presenter.ts";
import {
  allowsProject,
  guestAccess,
  type ProjectAction,
  type ProjectTarget,
  projectAccess,
  readOnlyAccess,
} from "./projects.policy.ts";

const APPROVER = "approver-id";
const actors: Record<string, PolicyActor> = {
  owner: { userId: "u", access: "owner", isGuest: false },
  editor: { userId: "u", access: "edit", isGuest: false },
  commenter: { userId: "u", access: "comment", isGuest: false },
  viewer: { userId: "u", access: "view", isGuest: false },
  "viewer, approver": { userId: APPROVER, access: "view", isGuest: false },
  outsider: { userId: APPROVER, access: null, isGuest: false },
};

const approvers: ProjectTarget = { approvers: [APPROVER] };
const columns: [string, ProjectAction][] = [
  ["read", "projects.read"],
  ["update", "projects.update"],
  ["archive", "projects.archive"],
  ["delete", "projects.delete"],
  ["add pages", "pages.create"],
  ["update pages", "pages.update"],
  ["delete pages", "pages.delete"],
  ["add versions", "versions.create"],
  ["update versions", "versions.update"],
  ["delete versions", "versions.delete"],
  ["approve pages", "pages.approve"],
  ["move to a team", "projects.move"],
];

const TABLE = `
owner            ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓
editor           ✓ ✓ · · ✓ ✓ ✓ ✓ ✓ ✓ ✓ ·
commenter        ✓ · · · · · · · · · · ·
viewer           ✓ · · · · · · · · · · ·
viewer, approver ✓ · · · · · · · · · ✓ ·
outsider         · · · · · · · · · · · ·
`;

describe("projects policy", () => {
  const rows = parsePolicyTable(TABLE, columns.length);

  it("covers every actor", () => {
    expect(rows.map((row) => row.actor).sort()).toEqual(Object.keys(actors).sort());
  });

  describe.each(rows)("$actor", (row) => {
    it.each(rowCases(row, columns))("$column.0 → $expected", ({ column: [, action], expected }) => {
      expect(allowsProject(actors[row.actor]!, action, approvers)).toBe(expected);
    });
  });

  it("derives access from ownership, membership and team role, the highest winning", () => {
    expect(projectAccess("u", { ownerId: "u", memberAccess: "view" })).toBe("owner");
    expect(projectAccess("u", { ownerId: "o", memberAccess: "comment" })).toBe("comment");
    expect(projectAccess("u", { ownerId: "o", memberAccess: "view", teamRole: "member" })).toBe("edit");
    expect(projectAccess("u", { ownerId: "o", memberAccess: null, teamRole: "collaborator" })).toBe(
      "comment",
    );
    expect(projectAccess("u", { ownerId: "o", memberAccess: null })).toBeNull();
    expect(projectAccess("u", { ownerId: "o", memberAccess: "comment", teamRole: "owner" })).toBe("edit");
    expect(projectAccess("u", { ownerId: "o", memberAccess: "edit", teamRole: "collaborator" })).toBe("edit");
    expect(projectAccess(null, { ownerId: "o", memberAccess: "edit" })).toBeNull();
  });

  it("gives link guests what the link allows, and nothing when it is off", () => {
    const link = { public: true, canComment: true } as Parameters<typeof guestAccess>[0];
    expect(guestAccess(link)).toBe("comment");
    expect(guestAccess({ ...link!, canComment: false })).toBe("view");
    expect(guestAccess({ ...link!, public: false })).toBeNull();
  });

  it("sends abilities that match the table, including comments and suggested edits", () => {
    expect(projectAbilities("comment", { userId: "u", approvers: [] })).toMatchObject({
      read: true,
      update: false,
      comment: true,
      attachFiles: true,
      suggestEdits: false,
      approvePages: false,
    });
    expect(projectAbilities("view", { userId: APPROVER, approvers: [APPROVER] })).toMatchObject({
      comment: false,
      approvePages: true,
    });
  });

  // SPEC §4: an expired project is read-only. Its abilities are what its actors hold, capped at a
  // viewer's, except archive and delete, which its owner keeps; approvers no longer approve.
  const EXPIRED = `
owner            ✓ · ✓ ✓ · · · · · · · ·
editor           ✓ · · · · · · · · · · ·
commenter        ✓ · · · · · · · · · · ·
viewer           ✓ · · · · · · · · · · ·
viewer, approver ✓ · · · · · · · · · · ·
outsider         · · · · · · · · · · · ·
`;
  const abilityOf: Record<ProjectAction, keyof ReturnType<typeof projectAbilities>> = {
    "projects.read": "read",
    "projects.update": "update",
    "projects.archive": "archive",
    "projects.delete": "delete",
    "pages.create": "addPages",
    "pages.update": "updatePages",
    "pages.delete": "deletePages",
    "versions.create": "addPages",
    "versions.update": "updatePages",
    "versions.delete": "deletePages",
    "pages.approve": "approvePages",
    "projects.move": "moveToTeam",
  };
  describe.each(parsePolicyTable(EXPIRED, columns.length))("expired project, $actor", (row) => {
    it.each(rowCases(row, columns))("$column.0 → $expected", ({ column: [, action], expected }) => {
      const actor = actors[row.actor]!;
      const held = actor.access;
      // What routes are handed (loadProject's `access`) and what the presenter sends agree.
      expect(
        allowsProject({ ...actor, access: readOnlyAccess(held, true) }, action, {
          ...approvers,
          isExpired: true,
        }) ||
          (["projects.archive", "projects.delete"].includes(action) &&
            allowsProject(actor, action, approvers)),
      ).toBe(expected);
      expect(
        projectAbilities(held, { userId: actor.userId, approvers: [APPROVER] }, true)[abilityOf[action]],
      ).toBe(expected);
    });
  });
});
