/**
 * A project's people over HTTP: list them; share by e-mail, change access, remove (or leave), transfer
 * ownership and choose approvers are operations (members.operations.ts), which authorize.
 */
import {
  addMemberSchema,
  approverSchema,
  dataAnswer,
  memberAddedSchema,
  messageAnswer,
  type ProjectMember,
  projectMemberSchema,
  projectTransferredSchema,
  transferProjectSchema,
  updateMemberSchema,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { listMembers } from "./members.load.ts";
import {
  addMember,
  projectParams,
  removeMember,
  setApprover,
  transferProject,
  updateMemberAccess,
} from "./members.operations.ts";
import { authorizeMember, withMemberAbilities } from "./members.policy.ts";

export async function membersRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.get(
    "/api/projects/:projectId/members",
    route({
      summary: "People of a project and their access",
      action: "members.read",
      response: dataAnswer(z.array(projectMemberSchema)),
    }),
    async (request): Promise<{ data: ProjectMember[] }> => {
      const actor = await requireActor(request);
      const { project, access } = await loadProject(db, actor, projectParams.parse(request.params).projectId);
      const reader = policyActorOf(actor, access);
      authorizeMember(reader, "members.read");
      return {
        data: (await listMembers(db, project)).map((member) => withMemberAbilities(reader, member, project)),
      };
    },
  );

  app.post(
    "/api/projects/:projectId/members",
    route({
      summary: "Share the project with someone",
      body: addMemberSchema,
      action: "members.add",
      response: dataAnswer(memberAddedSchema),
    }),
    async (request, reply) => {
      const added = await addMember(ctx, await requireActor(request), requestInput(request));
      reply.status(201);
      return added;
    },
  );

  app.patch(
    "/api/projects/:projectId/members/:memberId",
    route({
      summary: "Change someone's access",
      body: updateMemberSchema,
      action: "members.read",
      response: messageAnswer,
    }),
    async (request) => updateMemberAccess(ctx, await requireActor(request), requestInput(request)),
  );

  app.delete(
    "/api/projects/:projectId/members/:memberId",
    route({ summary: "Remove someone (or leave)", action: "members.remove", response: messageAnswer }),
    async (request) => removeMember(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    "/api/projects/:projectId/transfer",
    route({
      summary: "Make someone else the owner",
      body: transferProjectSchema,
      action: "projects.transfer",
      response: dataAnswer(projectTransferredSchema),
    }),
    async (request) => transferProject(ctx, await requireActor(request), requestInput(request)),
  );

  app.put(
    "/api/projects/:projectId/approvers/:userId",
    route({
      summary: "Make or unmake an approver",
      body: approverSchema,
      action: "approvers.manage",
      response: messageAnswer,
    }),
    async (request) => setApprover(ctx, await requireActor(request), requestInput(request)),
  );
}
