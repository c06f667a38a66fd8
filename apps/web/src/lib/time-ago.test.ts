import { describe, expect, it } from "vitest";
import { timeAgo } from "./time-ago.ts";

const now = Date.parse("2026-11-24T12:00:00Z");
const before = (seconds: number) => new Date(now - seconds * 1000).toISOString();

describe("timeAgo", () => {
  it.each([
    [0, "just now"],
    [59, "just now"],
    [90, "2 min ago"],
    [59 * 60, "59 min ago"],
    [3 * 3600, "3 h ago"],
  ])("%i s before now reads '%s'", (seconds, text) => {
    expect(timeAgo(before(seconds), now)).toBe(text);
  });

  it("reads a time in the future (a skewed clock) as just now", () => {
    expect(timeAgo(before(-30), now)).toBe("just now");
  });

  it("gives the date from a day on", () => {
    expect(timeAgo(before(2 * 86400), now)).toBe(new Date(before(2 * 86400)).toLocaleDateString());
  });
});
