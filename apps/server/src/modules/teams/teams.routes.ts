/**
 * Teams (SPEC §2 /team, §3, §7 create-team): the reader's teams, create, read one with its people,
 * rename. The people themselves are team-members.routes.ts. Reads authorize through teams.policy.ts;
 * the writes are operations (teams.operations.ts).
 */
import {
  createTeamSchema,
  dataAnswer,
  listTeamsQuerySchema,
  renameTeamSchema,
  type Team,
  type TeamDetail,
  teamDetailSchema,
  teamSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { teamPlanFor } from "./team-plan.ts";
import { teamFor, teamParams } from "./teams.access.ts";
import { listTeamPeople, listTeamsOf } from "./teams.load.ts";
import { createTeam, renameTeam } from "./teams.operations.ts";
import { presentTeam, presentTeamDetail } from "./teams.presenter.ts";

export async function teamsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { config } = ctx;
  const { db } = ctx.database;

  app.get(
    "/api/teams",
    route({
      summary: "The reader's teams",
      query: listTeamsQuerySchema,
      action: "self",
      response: dataAnswer(z.array(teamSchema)),
    }),
    async (request): Promise<{ data: Team[] }> => {
      const actor = await requireActor(request);
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
    route({
      summary: "Create a team",
      body: createTeamSchema,
      action: "self",
      response: dataAnswer(teamSchema),
    }),
    async (request, reply): Promise<{ data: Team; message: string }> => {
      const created = await createTeam(ctx, await requireActor(request), requestInput(request));
      reply.status(201);
      return created;
    },
  );

  app.get(
    "/api/teams/:teamId",
    route({
      summary: "A team with its members and collaborators",
      action: "teams.read",
      response: dataAnswer(teamDetailSchema),
    }),
    async (request): Promise<{ data: TeamDetail }> => {
      const actor = await requireActor(request);
      const { teamId } = teamParams.parse(request.params);
      const { team, role, owner } = await teamFor(db, actor, teamId, "teams.read");
      const plan = teamPlanFor(team, owner, config.plansEnabled);
      return { data: presentTeamDetail(team, role, actor.user.id, plan, await listTeamPeople(db, team)) };
    },
  );

  app.patch(
    "/api/teams/:teamId",
    route({
      summary: "Rename a team",
      body: renameTeamSchema,
      action: "teams.rename",
      response: dataAnswer(teamSchema),
    }),
    async (request): Promise<{ data: Team; message: string }> =>
      renameTeam(ctx, await requireActor(request), requestInput(request)),
  );
}
