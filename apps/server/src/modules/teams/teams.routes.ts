/**
 * Teams (SPEC §2 /team, §3, §7 create-team): the reader's teams, create, read one with its people,
 * rename. The people themselves are team-members.routes.ts. Every route authorizes through
 * teams.policy.ts; every change is told to the team's people (`teams.changed` in their user rooms).
 */
import {
  createTeamSchema,
  defaultTeamName,
  listTeamsQuerySchema,
  renameTeamSchema,
  TEAM_MESSAGES,
  type Team,
  type TeamDetail,
} from "@redline/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { teams } from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { route } from "../../lib/routes.ts";
import { type Actor, requireActor } from "../auth/session.ts";
import { type LoadedTeam, listTeamPeople, listTeamsOf, loadTeam, teamChanged } from "./teams.load.ts";

export { teamChanged };

import { teamPlanFor } from "./team-plan.ts";
import { authorizeTeam, type TeamAction, teamActor } from "./teams.policy.ts";
import { presentTeam, presentTeamDetail } from "./teams.presenter.ts";

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

export async function teamsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth, config } = ctx;
  const { db } = ctx.database;

  app.get(
    "/api/teams",
    route({ summary: "The reader's teams", query: listTeamsQuerySchema, action: "self" }),
    async (request): Promise<{ data: Team[] }> => {
      const actor = await requireActor(auth, db, request);
      const { product } = listTeamsQuerySchema.parse(request.query);
      const rows = await listTeamsOf(db, actor.user.id, product);
      return {
        data: rows.map(({ team, role, owner }) =>
          presentTeam(team, role, actor.user.id, teamPlanFor(team, owner, config.plansEnabled)),
        ),
      };
    },
  );

  app.post(
    "/api/teams",
    route({ summary: "Create a team", body: createTeamSchema, action: "self" }),
    async (request, reply): Promise<{ data: Team; message: string }> => {
      const actor = await requireActor(auth, db, request);
      const input = createTeamSchema.parse(request.body);
      const team = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(teams)
          .values({
            id: newId(),
            product: input.product,
            name: input.name || defaultTeamName(actor.user.displayName),
            ownerId: actor.user.id,
          })
          .returning();
        await teamChanged(tx, created!.id);
        return created!;
      });
      reply.status(201);
      const plan = teamPlanFor(team, actor.user, config.plansEnabled);
      return { data: presentTeam(team, "owner", actor.user.id, plan), message: TEAM_MESSAGES.created };
    },
  );

  app.get(
    "/api/teams/:teamId",
    route({ summary: "A team with its members and collaborators", action: "teams.read" }),
    async (request): Promise<{ data: TeamDetail }> => {
      const actor = await requireActor(auth, db, request);
      const { teamId } = teamParams.parse(request.params);
      const { team, role, owner } = await teamFor(db, actor, teamId, "teams.read");
      const plan = teamPlanFor(team, owner, config.plansEnabled);
      return { data: presentTeamDetail(team, role, actor.user.id, plan, await listTeamPeople(db, team)) };
    },
  );

  app.patch(
    "/api/teams/:teamId",
    route({ summary: "Rename a team", body: renameTeamSchema, action: "teams.rename" }),
    async (request): Promise<{ data: Team; message: string }> => {
      const actor = await requireActor(auth, db, request);
      const { teamId } = teamParams.parse(request.params);
      const { role, owner } = await teamFor(db, actor, teamId, "teams.rename");
      const { name } = renameTeamSchema.parse(request.body);
      const team = await db.transaction(async (tx) => {
        const [renamed] = await tx
          .update(teams)
          .set({ name, modifiedAt: new Date() })
          .where(eq(teams.id, teamId))
          .returning();
        if (!renamed) throw new NotFoundError(TEAM_MESSAGES.notAccessible, "team-not-accessible");
        await teamChanged(tx, teamId);
        return renamed;
      });
      const plan = teamPlanFor(team, owner, config.plansEnabled);
      return { data: presentTeam(team, role, actor.user.id, plan), message: TEAM_MESSAGES.renamed };
    },
  );
}
