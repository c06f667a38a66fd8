import { describe, expect, it } from "vitest";
import { confirmLeave, setLeaveGuard } from "./leave-guard.ts";

describe("leave guard", () => {
  it("lets the user leave when no view holds unsaved work", async () => {
    expect(await confirmLeave()).toBe(true);
  });

  it("asks the registered view, and stops asking once it is removed", async () => {
    const remove = setLeaveGuard(async () => false);
    expect(await confirmLeave()).toBe(false);
    remove();
    expect(await confirmLeave()).toBe(true);
  });

  it("a stale removal does not remove a newer guard", async () => {
    const removeOld = setLeaveGuard(async () => false);
    const removeNew = setLeaveGuard(async () => false);
    removeOld();
    expect(await confirmLeave()).toBe(false);
    removeNew();
  });
});
