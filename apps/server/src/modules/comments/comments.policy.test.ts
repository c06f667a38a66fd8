import type { Comment } from "@redline/shared";
import { describe, expect, it } from "vitest";
import type { PolicyActor } from "../../lib/policy.ts";
import { parsePolicyTable, rowCases } from "../../testing/policy-table.ts";
import {
  type CommentAction,
  type CommentTarget,
  canComment,
  withCommentAbilities,
} from "./comments.policy.ts";

const ME = "user-me";
const actors: Record<string, PolicyActor> = {
  owner: { userId: ME, access: "owner", isGuest: false },
  editor: { userId: ME, access: "edit", isGuest: false },
  commenter: { userId: ME, access: "comment", isGuest: false },
  viewer: { userId: ME, access: "view", isGuest: false },
  "link guest (comments on)": { userId: null, access: "comment", isGuest: true },
  "link guest (view only)": { userId: null, access: "view", isGuest: true },
  outsider: { userId: ME, access: null, isGuest: false },
};

const mine: CommentTarget = { authorId: ME };
const theirs: CommentTarget = { authorId: "someone-else" };
const guests: CommentTarget = { authorId: null };
const columns: [string, CommentAction, CommentTarget][] = [
  ["read", "comments.read", {}],
  ["create", "comments.create", {}],
  ["reply", "comments.reply", {}],
  ["attach", "comments.attach", {}],
  ["resolve", "comments.resolve", {}],
  ["move", "comments.move", {}],
  ["copy", "comments.copy", {}],
  ["edit own", "entries.edit", mine],
  ["edit other's", "entries.edit", theirs],
  ["edit guest's", "entries.edit", guests],
  ["delete own", "entries.delete", mine],
  ["delete other's", "entries.delete", theirs],
];

// Each row: the actor, then one mark per column above (✓ allowed, · refused).
const TABLE = `
owner                    ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ · · ✓ ✓
editor                   ✓ ✓ ✓ ✓ ✓ ✓ ✓ ✓ · · ✓ ✓
commenter                ✓ ✓ ✓ ✓ ✓ ✓ · ✓ · · ✓ ·
viewer                   ✓ · · · · · · ✓ · · ✓ ·
link guest (comments on) ✓ ✓ ✓ · · · · · · · · ·
link guest (view only)   ✓ · · · · · · · · · · ·
outsider                 · · · · · · · · · · · ·
`;

const rows = parsePolicyTable(TABLE, columns.length);

describe("comments policy", () => {
  it("covers every actor", () => {
    expect(rows.map((row) => row.actor).sort()).toEqual(Object.keys(actors).sort());
  });

  describe.each(rows)("$actor", (row) => {
    it.each(rowCases(row, columns))("$column.0 → $expected", ({ column: [, action, target], expected }) => {
      expect(canComment(actors[row.actor]!, action, target)).toBe(expected);
    });
  });

  it("gives each reader their own abilities on the same comment", () => {
    const comment = {
      id: "c1",
      thread: [
        { id: "e1", userId: ME, abilities: { edit: false, delete: false } },
        { id: "e2", userId: "someone-else", abilities: { edit: false, delete: false } },
      ],
      abilities: { reply: false, attach: false, resolve: false, move: false },
    } as unknown as Comment;
    const asCommenter = withCommentAbilities(actors.commenter!, comment);
    expect(asCommenter.abilities).toEqual({ reply: true, attach: true, resolve: true, move: true });
    expect(asCommenter.thread.map((entry) => entry.abilities)).toEqual([
      { edit: true, delete: true },
      { edit: false, delete: false },
    ]);
    const asGuest = withCommentAbilities(actors["link guest (comments on)"]!, comment);
    expect(asGuest.abilities).toEqual({ reply: true, attach: false, resolve: false, move: false });
    expect(asGuest.thread.every((entry) => !entry.abilities.edit && !entry.abilities.delete)).toBe(true);
  });
});
