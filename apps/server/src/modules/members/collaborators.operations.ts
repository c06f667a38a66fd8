/** A team project's collaborators, the write (SPEC §4; lib/operations.ts): toggled in or out by its editors. */
import { projectCollaboratorSchema, TEAM_MESSAGES, TEAM_PROJECT_MESSAGES } from "@redline/shared";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { projectCollaborators, teamMembers } from "../../db/schema/index.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { operation, withParams } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { publish, revokeRoom } from "../../lib/realtime.ts";
import type { Actor } from "../auth/session.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { authorizeMember } from "./members.policy.ts";

const collaboratorParams = z.object({
  projectId: z.string().min(1).max(64),
  userId: z.string().min(1).max(64),
});

/** Toggles one of the team's collaborators into or out of a team project (SPEC §4). */
export const toggleCollaborator = operation(
  "members.toggleCollaborator",
  withParams(collaboratorParams, projectCollaboratorSchema),
  async (ctx, actor: Actor, { projectId, userId, enabled }) => {
    const { db } = ctx.database;
    const { project, access } = await loadProject(db, actor, projectId);
    authorizeMember(policyActorOf(actor, access), "members.add");
    if (!project.teamId) throw new BadRequestError(TEAM_PROJECT_MESSAGES.noTeam, "project-without-team");
    const teamId = project.teamId;
    await db.transaction(async (tx) => {
      // The person's place in the team is read with the write, so a collaborator removed from the
      // team meanwhile is not toggled in.
      const [place] = await tx
        .select({ access: teamMembers.access })
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
        .for("share");
      if (place?.access !== "collaborator")
        throw new NotFoundError(TEAM_MESSAGES.notCollaborator, "not-collaborator");
      if (enabled) {
        await tx
          .insert(projectCollaborators)
          .values({ projectId: project.id, userId, addedBy: actor.user.id })
          .onConflictDoNothing();
      } else {
        await tx
          .delete(projectCollaborators)
          .where(
            and(eq(projectCollaborators.projectId, project.id), eq(projectCollaborators.userId, userId)),
          );
        await revokeRoom(tx, `project:${project.id}`, userId);
      }
      await publish(tx, `user:${userId}`, { type: "projects.changed", projectId: project.id });
    });
    return {
      message: enabled ? TEAM_PROJECT_MESSAGES.collaboratorAdded : TEAM_PROJECT_MESSAGES.collaboratorRemoved,
    };
  },
);
