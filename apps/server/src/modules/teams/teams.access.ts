/** A team as a caller may reach it: loaded with the caller's role and authorized for one action. */
import { TEAM_MESSAGES } from "@redline/shared";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import type { Actor } from "../auth/session.ts";
import { type LoadedTeam, loadTeam } from "./teams.load.ts";
import { authorizeTeam, type TeamAction, teamActor } from "./teams.policy.ts";

export const teamParams = z.object({ teamId: z.string().min(1).max(64) });

/** The team behind a route, authorized for the action; a team the reader is not in is a 404. */
export async function teamFor(
  db: Database,
  actor: Actor,
  teamId: string,
  action: TeamAction,
): Promise<LoadedTeam & { role: NonNullable<LoadedTeam["role"]> }> {
  const loaded = await loadTeam(db, actor.user.id, teamId);
  if (!loaded) throw new NotFoundError(TEAM_MESSAGES.notAccessible, "team-not-accessible");
  authorizeTeam(teamActor(actor.user.id, loaded.role), action, { isDisabled: loaded.team.isDisabled });
  return { ...loaded, role: loaded.role! };
}
