import { describe, expect, it } from "vitest";
import { parsePolicyTable, rowCases } from "../../testing/policy-table.ts";
import { canNotification, type NotificationAction, type NotificationReader } from "./notifications.policy.ts";

const notification = { userId: "recipient" };
const readers: Record<string, NotificationReader> = {
  recipient: { userId: "recipient" },
  "another user": { userId: "someone" },
  "signed out": { userId: null },
};
const columns: NotificationAction[] = ["notifications.read", "notifications.update"];

const TABLE = `
recipient    ✓ ✓
another user · ·
signed out   · ·
`;

describe("notifications policy", () => {
  const rows = parsePolicyTable(TABLE, columns.length);

  it("covers every reader", () => {
    expect(rows.map((row) => row.actor).sort()).toEqual(Object.keys(readers).sort());
  });

  describe.each(rows)("$actor", (row) => {
    it.each(rowCases(row, columns))("$column → $expected", ({ column, expected }) => {
      expect(canNotification(readers[row.actor]!, column, notification)).toBe(expected);
    });
  });
});
