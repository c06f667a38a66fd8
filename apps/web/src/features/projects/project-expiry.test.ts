import { describe, expect, it } from "vitest";
import { projectExpiryLabel } from "./project-expiry.ts";

const now = new Date("2026-11-24T12:00:00.000Z");
const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

describe("the project's expiry label", () => {
  it("follows the server: expired is 'Expired', whatever the clock says", () => {
    expect(projectExpiryLabel({ type: "webapp", expiresAt: at(30), isExpired: true }, now)).toBe("Expired");
  });

  it("counts down to the expiry of a project that expires", () => {
    expect(projectExpiryLabel({ type: "webapp", expiresAt: at(30), isExpired: false }, now)).toBe(
      "Expires in 30m",
    );
    expect(projectExpiryLabel({ type: "browse", expiresAt: at(150), isExpired: false }, now)).toBe(
      "Expires in 2h",
    );
  });

  it("shows nothing once the owner's projects are unlimited (expiresAt null), or for a type that never expires", () => {
    expect(projectExpiryLabel({ type: "webapp", expiresAt: null, isExpired: false }, now)).toBeNull();
    expect(projectExpiryLabel({ type: "web", expiresAt: at(30), isExpired: false }, now)).toBeNull();
  });
});
