/**
 * A team's plan is its owner's (SPEC §6): `teamPlanOf` (packages/shared) turns the owner's resolved plan
 * into what the team has — paid, branding, custom domain — and every use reads it from here: the team
 * as presented (the screens), the branding and domain routes, the host lookup, the proxy's ask and the
 * trusted custom origins. A lapsed plan ends them all at once.
 */
import { resolvePlan, type TeamPlan, teamPlanOf } from "@redline/shared";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { type TeamRow, users } from "../../db/schema/index.ts";
import { type PlanHolder, planSourcesOf } from "../plans/plans.ts";

/**
 * The owner's columns a plan is resolved from, to select with a team (null on a left join without one).
 * The id is there so that an owner holding nothing is still an owner: Drizzle makes a nested selection
 * whose columns are all null a null.
 */
export const ownerPlanColumns = {
  id: users.id,
  privilege: users.privilege,
  privilegeUntil: users.privilegeUntil,
  lifetimeDeal: users.lifetimeDeal,
  partnerPlan: users.partnerPlan,
  heldSubscriptions: users.heldSubscriptions,
};
export type OwnerPlanSources = Omit<PlanHolder, "limits">;

export function teamPlanFor(
  team: Pick<TeamRow, "isDisabled" | "product">,
  owner: OwnerPlanSources | null,
  plansEnabled: boolean,
): TeamPlan {
  return teamPlanOf(team, owner ? resolvePlan(planSourcesOf(owner), team.product, plansEnabled) : null);
}

/** The team's plan, reading its owner's row. */
export async function loadTeamPlan(
  db: Database,
  team: Pick<TeamRow, "isDisabled" | "product" | "ownerId">,
  plansEnabled: boolean,
): Promise<TeamPlan> {
  const [owner] = await db.select(ownerPlanColumns).from(users).where(eq(users.id, team.ownerId));
  return teamPlanFor(team, owner ?? null, plansEnabled);
}
