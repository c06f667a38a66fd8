/**
 * A team's people over HTTP (SPEC §4, §6, §7 remove-from-team): invite, change a role, remove a member
 * or a collaborator, leave — each an operation of team-members.operations.ts, which authorizes.
 */
import {
  dataAnswer,
  inviteTeamMemberSchema,
  messageAnswer,
  teamInvitedSchema,
  updateTeamMemberSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import {
  changeTeamMemberRole,
  inviteTeamMember,
  leaveTeam,
  removeTeamCollaborator,
  removeTeamMember,
} from "./team-members.operations.ts";

export async function teamMembersRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.post(
    "/api/teams/:teamId/members",
    route({
      summary: "Invite someone to a team by e-mail",
      body: inviteTeamMemberSchema,
      action: "teams.addMembers",
      response: dataAnswer(teamInvitedSchema),
    }),
    async (request, reply) => {
      const invited = await inviteTeamMember(ctx, await requireActor(request), requestInput(request));
      reply.status(201);
      return invited;
    },
  );

  app.patch(
    "/api/teams/:teamId/members/:memberId",
    route({
      summary: "Change a team user's role",
      body: updateTeamMemberSchema,
      action: "teams.changeRole",
      response: messageAnswer,
    }),
    async (request) => changeTeamMemberRole(ctx, await requireActor(request), requestInput(request)),
  );

  for (const [path, remove, summary] of [
    ["members", removeTeamMember, "Remove a member from a team"],
    ["collaborators", removeTeamCollaborator, "Remove a collaborator from the team's collaborators"],
  ] as const) {
    app.delete(
      `/api/teams/:teamId/${path}/:memberId`,
      route({ summary, action: remove.operationName, response: messageAnswer }),
      async (request) => remove(ctx, await requireActor(request), requestInput(request)),
    );
  }

  app.post(
    "/api/teams/:teamId/leave",
    route({ summary: "Leave a team", action: "teams.leave", response: messageAnswer }),
    async (request) => leaveTeam(ctx, await requireActor(request), requestInput(request)),
  );
}
