import { describe, expect, it } from "vitest";
import { MESSAGES } from "./messages.ts";
import {
  loadingText,
  nextOnboardingScreen,
  type OnboardingSubject,
  shouldShowProfileSetup,
} from "./onboarding.ts";

const newUser = (overrides: Partial<OnboardingSubject> = {}): OnboardingSubject => ({
  displayName: "Ada",
  photoURL: null,
  signupSource: null,
  emailVerified: true,
  onboarding: {},
  counters: { projectsCount: 0 },
  ...overrides,
});
const settled = {
  photoURL: "avatar-1",
  signupSource: "Other",
  onboarding: { profileSetup: true as const, featureTour: true as const },
};
const web = { pathname: "/projects", product: "web" as const };

describe("the profile setup (SPEC §2)", () => {
  it.each([
    ["no photo", newUser({ signupSource: "Other" })],
    ["no sign-up source", newUser({ photoURL: "avatar-2" })],
    ["no name", newUser({ displayName: " ", photoURL: "avatar-2", signupSource: "Other" })],
  ])("shows to a verified user with %s", (_, user) => {
    expect(shouldShowProfileSetup(user)).toBe(true);
  });

  it("never shows to an unverified user, a complete profile, or once done", () => {
    expect(shouldShowProfileSetup(newUser({ emailVerified: false }))).toBe(false);
    expect(shouldShowProfileSetup(newUser({ photoURL: "/files/a.jpg", signupSource: "Other" }))).toBe(false);
    expect(shouldShowProfileSetup(newUser({ onboarding: { profileSetup: true } }))).toBe(false);
  });
});

describe("which onboarding screen shows now", () => {
  it("goes profile setup → tour → product intro → demo, one at a time", () => {
    expect(nextOnboardingScreen(newUser(), web)).toBe("profileSetup");
    const afterSetup = newUser({ onboarding: { profileSetup: true } });
    expect(nextOnboardingScreen(afterSetup, web)).toBe("featureTour");
    const afterTour = newUser(settled);
    expect(nextOnboardingScreen(afterTour, web)).toBe("introduceProductSplitting");
    const afterIntro = newUser({
      ...settled,
      onboarding: { ...settled.onboarding, introduceProductSplitting: true },
    });
    expect(nextOnboardingScreen(afterIntro, web)).toBe("demoModal");
    expect(
      nextOnboardingScreen({ ...afterIntro, onboarding: { ...afterIntro.onboarding, demoModal: true } }, web),
    ).toBeNull();
  });

  it("shows the product-splitting intro only on /projects, /team and /profile, for the web product", () => {
    const user = newUser(settled);
    for (const pathname of ["/projects", "/team", "/profile", "/profile/"])
      expect(nextOnboardingScreen(user, { pathname, product: "web" })).toBe("introduceProductSplitting");
    for (const pathname of ["/billing", "/team/abc", "/project/p1"])
      expect(nextOnboardingScreen(user, { pathname, product: "web" })).toBeNull();
    expect(nextOnboardingScreen(user, { pathname: "/projects", product: "browse" })).toBe("demoModal");
  });

  it("offers the demo only on the project list, to a user without a project", () => {
    const user = newUser({
      ...settled,
      onboarding: { ...settled.onboarding, introduceProductSplitting: true },
    });
    expect(nextOnboardingScreen({ ...user, counters: { projectsCount: 1 } }, web)).toBeNull();
    expect(nextOnboardingScreen(user, { pathname: "/team", product: "web" })).toBeNull();
  });

  it("shows nothing to an unverified user", () => {
    expect(nextOnboardingScreen(newUser({ emailVerified: false }), web)).toBeNull();
  });
});

describe("the loading views' texts (SPEC §2)", () => {
  it("says building, first visit or the default", () => {
    expect(loadingText({ isBuilding: true, isFirstVisit: true })).toBe(MESSAGES.loadingBuilding);
    expect(loadingText({ isFirstVisit: true })).toBe(MESSAGES.loadingFirst);
    expect(loadingText()).toBe("Loading experience...");
  });
});
