/**
 * The active team of a product (SPEC §2, §5): the one remembered in local storage while the user still
 * belongs to it, else the product's first team; null while loading or without teams.
 */
import type { Product, Team } from "@redline/shared";
import { useSyncExternalStore } from "react";
import { pickTeam, savedTeamId, subscribeSavedTeam } from "./active-team.ts";
import { useTeams } from "./team-queries.ts";

/** Follows a switch of team in this tab or another at once (the projects list, the branding). */
export function useActiveTeam(product: Product): Team | null {
  const teams = useTeams(product);
  const savedId = useSyncExternalStore(subscribeSavedTeam, () => savedTeamId(product));
  return teams.data ? pickTeam(teams.data, product, savedId) : null;
}

/** The teams a project can be created in: enabled ones where the user is more than a collaborator. */
export const teamsForNewProjects = (teams: readonly Team[], product: Product) =>
  teams.filter((team) => team.product === product && !team.isDisabled && team.role !== "collaborator");
