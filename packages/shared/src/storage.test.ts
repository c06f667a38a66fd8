import { describe, expect, it } from "vitest";
import { UNLIMITED } from "./limits.ts";
import { PARTNER_PLANS, type PlanSources, resolvePlan } from "./plans.ts";
import { BYTES_PER_GB, canStore, formatBytes, storageLimitBytes, storageLimitMessage } from "./storage.ts";

const nothing: PlanSources = { privilege: null, lifetimeDeal: null, partnerPlan: null, subscriptions: [] };

describe("storage limits (SPEC §9)", () => {
  it("are the plans' gigabytes in bytes: free 1 GB, Standard 30, Pro 150, partner A–D 25–300, Team unlimited", () => {
    expect(storageLimitBytes(resolvePlan(nothing, "browse").entitlements)).toBe(BYTES_PER_GB);
    expect(storageLimitBytes(resolvePlan({ ...nothing, privilege: "standard" }, "browse").entitlements)).toBe(
      30 * BYTES_PER_GB,
    );
    expect(storageLimitBytes(resolvePlan({ ...nothing, privilege: "pro" }, "web").entitlements)).toBe(
      150 * BYTES_PER_GB,
    );
    expect(Object.values(PARTNER_PLANS).map((plan) => storageLimitBytes(plan) / BYTES_PER_GB)).toEqual([
      25, 50, 100, 300,
    ]);
    expect(storageLimitBytes(resolvePlan({ ...nothing, privilege: "team" }, "web").entitlements)).toBe(
      UNLIMITED,
    );
    expect(storageLimitBytes(resolvePlan(nothing, "web", false).entitlements)).toBe(UNLIMITED);
  });

  it("let a write through when it stays within the limit, adds nothing, or there is no limit", () => {
    expect(canStore(100, 40, 100)).toBe(true);
    expect(canStore(100, 40, 101)).toBe(false);
    // Over a limit that was lowered: what adds nothing still goes (re-uploading a held file, deleting).
    expect(canStore(100, 150, 150)).toBe(true);
    expect(canStore(100, 150, 120)).toBe(true);
    expect(canStore(100, 150, 151)).toBe(false);
    expect(canStore(UNLIMITED, 10 * BYTES_PER_GB, 20 * BYTES_PER_GB)).toBe(true);
  });

  it("format bytes with base 1024 and 2 decimals", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1536)).toBe("1.50 KB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5.00 MB");
    expect(formatBytes(BYTES_PER_GB)).toBe("1.00 GB");
    expect(formatBytes(300 * BYTES_PER_GB)).toBe("300.00 GB");
    expect(storageLimitMessage(BYTES_PER_GB)).toContain("1.00 GB of storage");
  });
});
