/**
 * A team project's collaborators (SPEC §4): the team's collaborators, each toggled into or out of the
 * project by its editors (an operation, lib/operations.ts); toggled in, they comment. The toggle
 * authorizes through the members policy.
 */
import {
  dataAnswer,
  messageAnswer,
  type ProjectCollaborator,
  projectCollaboratorAnswerSchema,
  projectCollaboratorSchema,
} from "@redline/shared";
import { and, asc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { type ProjectRow, projectCollaborators, teamMembers, users } from "../../db/schema/index.ts";
import { requestInput } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { toggleCollaborator } from "./collaborators.operations.ts";
import { authorizeMember } from "./members.policy.ts";

const projectParams = z.object({ projectId: z.string().min(1).max(64) });

/** The project's team's collaborators who have signed up, in the order they joined the team. */
async function listCollaborators(db: Database, project: ProjectRow): Promise<ProjectCollaborator[]> {
  if (!project.teamId) return [];
  const rows = await db
    .select({ user: users, toggledIn: projectCollaborators.userId })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .leftJoin(
      projectCollaborators,
      and(eq(projectCollaborators.projectId, project.id), eq(projectCollaborators.userId, users.id)),
    )
    .where(and(eq(teamMembers.teamId, project.teamId), eq(teamMembers.access, "collaborator")))
    .orderBy(asc(teamMembers.createdAt), asc(teamMembers.id));
  return rows.map(({ user, toggledIn }) => ({
    uid: user.id,
    displayName: user.displayName,
    email: user.email,
    photoURL: user.photoURL,
    enabled: toggledIn !== null,
  }));
}

export async function collaboratorsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.get(
    "/api/projects/:projectId/collaborators",
    route({
      summary: "The project's team collaborators, toggled in or not",
      action: "members.read",
      response: dataAnswer(z.array(projectCollaboratorAnswerSchema)),
    }),
    async (request): Promise<{ data: ProjectCollaborator[] }> => {
      const actor = await requireActor(request);
      const { project, access } = await loadProject(db, actor, projectParams.parse(request.params).projectId);
      authorizeMember(policyActorOf(actor, access), "members.read");
      return { data: await listCollaborators(db, project) };
    },
  );

  app.put(
    "/api/projects/:projectId/collaborators/:userId",
    route({
      summary: "Toggle one of the team's collaborators into or out of the project",
      body: projectCollaboratorSchema,
      action: "members.add",
      response: messageAnswer,
    }),
    async (request) => toggleCollaborator(ctx, await requireActor(request), requestInput(request)),
  );
}
