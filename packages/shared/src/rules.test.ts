import { describe, expect, it } from "vitest";
import { authErrorMessage, toAuthCode } from "./auth-errors.ts";
import { canAddPage, DEFAULT_PAGE_LIMIT, UNLIMITED } from "./limits.ts";
import { badgeCount, notificationPageTitle, projectTabTitle, tabTitle } from "./titles.ts";
import { DEFAULT_EMAIL_PREFERENCES, isValidNewPassword, profileUpdateSchema } from "./user.ts";

describe("titles", () => {
  it("formats tab titles as '{title} | Redline'", () => {
    expect(tabTitle("Projects")).toBe("Projects | Redline");
  });
  it("cuts project titles to 20 characters plus an ellipsis", () => {
    expect(projectTabTitle("A".repeat(20))).toBe("A".repeat(20));
    expect(projectTabTitle("Marketing site redesign 2027")).toBe("Marketing site redes…");
  });
  it("cuts notification page titles to 15 characters plus '...'", () => {
    expect(notificationPageTitle("Short title")).toBe("Short title");
    expect(notificationPageTitle("Homepage with hero banner")).toBe("Homepage with h...");
  });
  it("caps badge counts at '9+'", () => {
    expect([0, 9, 10, 99].map(badgeCount)).toEqual(["0", "9", "9+", "9+"]);
  });
});

describe("page limits", () => {
  it("allows pages below the limit, defaulting to 5", () => {
    expect(DEFAULT_PAGE_LIMIT).toBe(5);
    expect(canAddPage(undefined, 4)).toBe(true);
    expect(canAddPage(undefined, 5)).toBe(false);
    expect(canAddPage(10, 9)).toBe(true);
    expect(canAddPage(10, 10)).toBe(false);
  });
  it("treats -1 as unlimited", () => {
    expect(canAddPage(UNLIMITED, 10_000)).toBe(true);
  });
});

describe("auth error codes", () => {
  it("maps library codes to 'auth/' codes and strips the prefix for display", () => {
    expect(toAuthCode("INVALID_EMAIL_OR_PASSWORD")).toBe("auth/invalid-credential");
    expect(toAuthCode("REQUIRES_RECENT_LOGIN")).toBe("auth/requires-recent-login");
    expect(toAuthCode("auth/too-many-requests")).toBe("auth/too-many-requests");
    expect(toAuthCode("SOMETHING_NEW")).toBe("auth/internal-error");
    expect(authErrorMessage("auth/email-already-in-use")).toBe("Email already in use");
  });
});

describe("user rules", () => {
  it("starts every e-mail preference at true", () => {
    expect(Object.keys(DEFAULT_EMAIL_PREFERENCES)).toHaveLength(8);
    expect(Object.values(DEFAULT_EMAIL_PREFERENCES).every(Boolean)).toBe(true);
  });
  it("needs new passwords of at least 8 characters", () => {
    expect(isValidNewPassword("1234567")).toBe(false);
    expect(isValidNewPassword("12345678")).toBe(true);
  });
  it("accepts only known profile fields", () => {
    expect(profileUpdateSchema.safeParse({ displayName: "Ann" }).success).toBe(true);
    expect(profileUpdateSchema.safeParse({ emailVerified: true }).success).toBe(false);
    expect(profileUpdateSchema.safeParse({ onboarding: { introduceProductSplitting: true } }).success).toBe(
      true,
    );
    expect(profileUpdateSchema.safeParse({ onboarding: { somethingElse: true } }).success).toBe(false);
  });
});
