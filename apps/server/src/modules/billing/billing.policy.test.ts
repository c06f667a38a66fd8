import { describe, expect, it } from "vitest";
import { parsePolicyTable, rowCases } from "../../testing/policy-table.ts";
import { canSubscription, type SubscriptionAction, type SubscriptionTarget } from "./billing.policy.ts";

const active: SubscriptionTarget = {
  userId: "payer",
  provider: "card",
  status: "active",
  cancelAtPeriodEnd: false,
  pendingPlanId: null,
};
const subscriptions: Record<string, SubscriptionTarget> = {
  "active card": active,
  "cancelling card": { ...active, cancelAtPeriodEnd: true },
  "pending update": { ...active, pendingPlanId: "pro-yearly" },
  "past_due card": { ...active, status: "past_due" },
  "incomplete card": { ...active, status: "incomplete" },
  "canceled card": { ...active, status: "canceled" },
  "second provider": { ...active, provider: "second" },
  "suspended second": { ...active, provider: "second", status: "past_due" },
  "awaiting approval": { ...active, provider: "second", status: "incomplete" },
  "cancelled second": { ...active, provider: "second", status: "canceled" },
};
const actions: SubscriptionAction[] = [
  "subscriptions.read",
  "subscriptions.cancel",
  "subscriptions.undoCancel",
  "subscriptions.update",
  "subscriptions.cancelPendingUpdate",
];

// Columns: read, cancel, undo cancel, update, cancel pending update — for the payer.
const PAYER = `
active card      ✓ ✓ · ✓ ·
cancelling card  ✓ · ✓ · ·
pending update   ✓ ✓ · · ✓
past_due card    ✓ ✓ · ✓ ·
incomplete card  ✓ · · · ·
canceled card    ✓ · · · ·
second provider  ✓ ✓ · · ·
suspended second ✓ ✓ · · ·
awaiting approval ✓ · · · ·
cancelled second ✓ · · · ·
`;

describe("subscriptions policy", () => {
  const rows = parsePolicyTable(PAYER, actions.length);

  it("covers every subscription state", () => {
    expect(rows.map((row) => row.actor).sort()).toEqual(Object.keys(subscriptions).sort());
  });

  describe.each(rows)("payer, $actor", (row) => {
    it.each(rowCases(row, actions))("$column → $expected", ({ column, expected }) => {
      expect(canSubscription("payer", column, subscriptions[row.actor]!)).toBe(expected);
    });
  });

  it.each(Object.entries(subscriptions))("anyone else may do nothing with an %s subscription", (_, s) => {
    for (const action of actions) {
      expect(canSubscription("someone-else", action, s)).toBe(false);
      expect(canSubscription(null, action, s)).toBe(false);
    }
  });
});
