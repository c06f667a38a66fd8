import { describe, expect, it } from "vitest";
import { PARTNER_PLANS, PLANS } from "./plans.ts";
import { formatVideoTime, trimmedDuration, videoFits, videoInputSchema, videoLimitSeconds } from "./video.ts";

describe("video comment rules (SPEC §6, §9)", () => {
  it("gives each plan its longest video: free browse 1 minute, Standard and Pro 10, free web none, Team unlimited", () => {
    expect(videoLimitSeconds(PLANS.browse.free.entitlements)).toBe(60);
    expect(videoLimitSeconds(PLANS.browse.standard.entitlements)).toBe(600);
    expect(videoLimitSeconds(PLANS.browse.pro.entitlements)).toBe(600);
    expect(videoLimitSeconds(PLANS.web.free.entitlements)).toBe(0);
    expect(videoLimitSeconds(PLANS.web.team.entitlements)).toBe(-1);
    for (const plan of Object.values(PARTNER_PLANS)) expect([300, 600]).toContain(videoLimitSeconds(plan));
  });

  it("lets a measured duration through up to the limit (with half a second for container rounding)", () => {
    expect(videoFits(60, 60)).toBe(true);
    expect(videoFits(60, 60.4)).toBe(true);
    expect(videoFits(60, 61)).toBe(false);
    expect(videoFits(0, 1)).toBe(false);
    expect(videoFits(-1, 36_000)).toBe(true);
  });

  it("measures what a trim keeps against the file's own duration, never past it", () => {
    expect(trimmedDuration(61, {})).toBe(61);
    expect(trimmedDuration(61, { trimStart: 2, trimEnd: 50 })).toBe(48);
    expect(trimmedDuration(10, { trimEnd: 500 })).toBe(10);
    expect(trimmedDuration(10, { trimStart: 20 })).toBe(0);
  });

  it("shows times as mm:ss", () => {
    expect(formatVideoTime(0)).toBe("00:00");
    expect(formatVideoTime(3.9)).toBe("00:03");
    expect(formatVideoTime(61)).toBe("01:01");
    expect(formatVideoTime(600)).toBe("10:00");
  });

  it("takes an upload's id and a trim, nothing else (no client duration)", () => {
    const upload = `p1.u1.${"a".repeat(32)}`;
    expect(videoInputSchema.safeParse({ upload, trimStart: 1, trimEnd: 2 }).success).toBe(true);
    expect(videoInputSchema.safeParse({ upload, duration: 3 }).success).toBe(false);
    expect(videoInputSchema.safeParse({ upload, trimStart: 2, trimEnd: 1 }).success).toBe(false);
    expect(videoInputSchema.safeParse({ upload: "../etc/passwd" }).success).toBe(false);
  });
});
