import { describe, expect, it } from "vitest";
import type { PolicyActor } from "../../lib/policy.ts";
import { parsePolicyTable, rowCases } from "../../testing/policy-table.ts";
import {
  type ConversationAction,
  type ConversationTarget,
  canConversation,
  conversationAbilities,
} from "./conversations.policy.ts";

const ME = "user-me";
const actors: Record<string, PolicyActor> = {
  owner: { userId: ME, access: "owner", isGuest: false },
  editor: { userId: ME, access: "edit", isGuest: false },
  commenter: { userId: ME, access: "comment", isGuest: false },
  viewer: { userId: ME, access: "view", isGuest: false },
  "team collaborator (in the project)": { userId: ME, access: "comment", isGuest: false },
  "link guest (comments on)": { userId: null, access: "comment", isGuest: true },
  "link guest (view only)": { userId: null, access: "view", isGuest: true },
  "outsider (link off)": { userId: null, access: null, isGuest: true },
  outsider: { userId: ME, access: null, isGuest: false },
};

const inIt: ConversationTarget = { isParticipant: true };
const notInIt: ConversationTarget = { isParticipant: false };
const columns: [string, ConversationAction, ConversationTarget][] = [
  ["read own", "conversations.read", inIt],
  ["read other's", "conversations.read", notInIt],
  ["send own", "conversations.send", inIt],
  ["send other's", "conversations.send", notInIt],
  ["attach own", "conversations.attach", inIt],
  ["attach other's", "conversations.attach", notInIt],
  ["start", "conversations.start", notInIt],
];

// Each row: the actor, then one mark per column above (✓ allowed, · refused).
const TABLE = `
owner                              ✓ · ✓ · ✓ · ✓
editor                             ✓ · ✓ · ✓ · ✓
commenter                          ✓ · ✓ · ✓ · ✓
viewer                             ✓ · ✓ · ✓ · ✓
team collaborator (in the project) ✓ · ✓ · ✓ · ✓
link guest (comments on)           ✓ · ✓ · ✓ · ✓
link guest (view only)             ✓ · ✓ · ✓ · ✓
outsider (link off)                · · · · · · ·
outsider                           · · · · · · ·
`;

const rows = parsePolicyTable(TABLE, columns.length);

describe("conversations policy", () => {
  it("covers every actor", () => {
    expect(rows.map((row) => row.actor).sort()).toEqual(Object.keys(actors).sort());
  });

  describe.each(rows)("$actor", (row) => {
    it.each(rowCases(row, columns))("$column.0 → $expected", ({ column: [, action, target], expected }) => {
      expect(canConversation(actors[row.actor]!, action, target)).toBe(expected);
    });
  });

  it("sends the same answers as abilities", () => {
    expect(conversationAbilities(actors.viewer!, inIt)).toEqual({ send: true, attach: true });
    expect(conversationAbilities(actors.outsider!, inIt)).toEqual({ send: false, attach: false });
  });
});
