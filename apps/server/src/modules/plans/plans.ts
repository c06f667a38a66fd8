/**
 * A user's plans as the server reads them: what can give a user a plan (a privilege, a lifetime deal,
 * a partner plan, and the subscriptions the billing module keeps on the user row), and the project and page limits that apply to them — the larger of their stored limits
 * and what their plans give, or none with plans switched off (PLANS_ENABLED=false).
 */
import {
  type Entitlements,
  effectiveLimits,
  type Limits,
  limitsWithPlans,
  type PlanSources,
  type Product,
  resolvePlan,
} from "@redline/shared";
import type { UserRow } from "../../db/schema/index.ts";

/** A user, or the owner columns read with a project (a left join: their limits may be missing). */
export type PlanHolder = Pick<UserRow, "privilege" | "privilegeUntil" | "lifetimeDeal" | "partnerPlan"> & {
  limits: Limits | null;
  /** The subscriptions that hold a plan (absent on a left join that found no owner). */
  heldSubscriptions: UserRow["heldSubscriptions"] | null;
};

/** The privilege while it lasts (a referral reward's ends with its months). */
export function activePrivilege(
  user: Pick<UserRow, "privilege" | "privilegeUntil">,
  now = new Date(),
): string | null {
  if (!user.privilege) return null;
  return user.privilegeUntil && user.privilegeUntil <= now ? null : user.privilege;
}

export function planSourcesOf(user: Omit<PlanHolder, "limits">): PlanSources {
  return {
    privilege: activePrivilege(user),
    lifetimeDeal: user.lifetimeDeal,
    partnerPlan: user.partnerPlan,
    subscriptions: user.heldSubscriptions ?? [],
  };
}

/** The limits that apply to this user, with plans on (`plansEnabled` omitted) or as configured. */
export function limitsFor(user: PlanHolder, plansEnabled = true): Limits {
  return effectiveLimits(limitsWithPlans(user.limits, planSourcesOf(user)), plansEnabled);
}

/** What this user's plans allow in a product (SPEC §6, §9): everything with plans switched off. */
export function entitlementsFor(
  user: Omit<PlanHolder, "limits">,
  product: Product,
  plansEnabled = true,
): Entitlements {
  return resolvePlan(planSourcesOf(user), product, plansEnabled).entitlements;
}
