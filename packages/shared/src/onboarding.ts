/**
 * The first minutes of a new user (SPEC §2 profile setup, product-splitting intro, demo modal,
 * loading views; §9 timings): which onboarding screen shows when, as pure rules both sides read. Each
 * screen shows once: its flag in the user's `onboarding` map (SPEC §3) is set when it is done or closed.
 */

import type { Product } from "./limits.ts";
import { MESSAGES } from "./messages.ts";

/** The routes on which the product-splitting intro may show (SPEC §9), 1 s after load. */
export const PRODUCT_SPLITTING_ROUTES: readonly string[] = ["/projects", "/team", "/profile"];
export const PRODUCT_SPLITTING_DELAY_MS = 1000;

/** The demo project's public link (SPEC §2 `/share/demo`). */
export const DEMO_PROJECT_PATH = "/share/demo";

export type OnboardingScreen = "profileSetup" | "featureTour" | "introduceProductSplitting" | "demoModal";

export interface OnboardingSubject {
  displayName: string;
  photoURL: string | null;
  signupSource: string | null;
  emailVerified: boolean;
  onboarding: Partial<Record<string, true>>;
  counters: { projectsCount: number };
}

/**
 * SPEC §2: the full-screen profile setup shows while the display name, photo or sign-up source is
 * missing and the e-mail is verified — until the user has been through it once (done is done, even if
 * they chose to leave the photo out).
 */
export function shouldShowProfileSetup(user: OnboardingSubject): boolean {
  if (!user.emailVerified || user.onboarding.profileSetup === true) return false;
  return !user.displayName.trim() || !user.photoURL || !user.signupSource;
}

/**
 * The one onboarding screen to show now, if any: one at a time, in the order a new user meets them —
 * the profile setup, the feature tour, the product-splitting intro (web product, its routes only), then
 * the demo project's invitation (on the project list, while the user has no project of their own).
 */
export function nextOnboardingScreen(
  user: OnboardingSubject,
  where: { pathname: string; product: Product },
): OnboardingScreen | null {
  if (shouldShowProfileSetup(user)) return "profileSetup";
  if (!user.emailVerified) return null;
  if (user.onboarding.featureTour !== true) return "featureTour";
  const path = where.pathname.replace(/\/+$/, "") || "/";
  if (
    where.product === "web" &&
    user.onboarding.introduceProductSplitting !== true &&
    PRODUCT_SPLITTING_ROUTES.includes(path)
  )
    return "introduceProductSplitting";
  if (path === "/projects" && user.onboarding.demoModal !== true && user.counters.projectsCount === 0)
    return "demoModal";
  return null;
}

/**
 * SPEC §2's loading texts: 'Building your experience…' while a project just made is being opened,
 * 'Loading your first experience…' on a new user's first visit (before their tour), else the default.
 */
export function loadingText(state: { isBuilding?: boolean; isFirstVisit?: boolean } = {}): string {
  if (state.isBuilding) return MESSAGES.loadingBuilding;
  if (state.isFirstVisit) return MESSAGES.loadingFirst;
  return MESSAGES.loadingDefault;
}
