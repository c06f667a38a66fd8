/**
 * The user's plan in a product as the upsells see it (upsellPlanOf, SPEC §4): a member of an enabled
 * team is offered nothing. Null until their teams have loaded — the offer bar waits for them (§4), so it
 * never shows for a moment to someone it is not for.
 */
import { type Product, type ResolvedPlan, type User, upsellPlanOf } from "@redline/shared";
import { useTeams } from "../teams/team-queries.ts";

export function useUpsellPlan(me: User | null | undefined, product: Product): ResolvedPlan | null {
  const teams = useTeams(product);
  if (!me || !teams.data) return null;
  return upsellPlanOf(me.plans[product], teams.data);
}
