/**
 * The writes of the public link (lib/operations.ts, ADR 0033): its settings (the owner's and editors'), and
 * a signed-in visitor joining the project from it (added with comment access).
 */
import { normalizeSharing, productOf, sharingUpdateSchema } from "@redline/shared";
import { and, eq } from "drizzle-orm";
import { projectMembers, projects } from "../../db/schema/index.ts";
import { PlanLimitError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { operation, withParams } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { announceChanged } from "../../lib/realtime.ts";
import type { Actor } from "../auth/session.ts";
import { authorizeMember } from "../members/members.policy.ts";
import { guestsReadOnlyOf, loadProject } from "../project-access/projects.load.ts";
import { servedSharing } from "../project-access/projects.policy.ts";
import { loadShared, projectParams } from "./sharing.load.ts";

export const updateSharing = operation(
  "sharing.update",
  withParams(projectParams, sharingUpdateSchema),
  async (ctx, actor: Actor, { projectId, ...input }) => {
    const { db } = ctx.database;
    const loaded = await loadProject(db, actor, projectId);
    const { project, access } = loaded;
    authorizeMember(policyActorOf(actor, access), "sharing.update");
    // SPEC §6: guest commenting is a plan feature of the project owner's.
    if (input.canComment === true && ctx.config.plansEnabled && !loaded.ownerGuestCommenting)
      throw new PlanLimitError(
        "guest-commenting",
        "Guest comments are not included in this project owner's plan. Upgrade to turn them on.",
        { kind: "feature", product: productOf(project.type), limit: 0 },
      );
    const sharing = { ...normalizeSharing(project.sharing), ...input };
    await db.transaction(async (tx) => {
      await tx.update(projects).set({ sharing }).where(eq(projects.id, project.id));
      await announceChanged(tx, `project:${project.id}`);
    });
    return { data: servedSharing(sharing, guestsReadOnlyOf(loaded, ctx.config.plansEnabled)) };
  },
);

export const joinSharedProject = operation(
  "sharing.join",
  projectParams,
  async (ctx, actor: Actor, { projectId }) => {
    const { db } = ctx.database;
    const { project } = await loadShared(ctx, projectId);
    const { access } = await loadProject(db, actor, project.id);
    if (access) return { data: { access } };
    // Visiting the demo never puts it among one's own projects.
    if (project.type === "demo") return { data: { access: "comment" as const } };
    await db.transaction(async (tx) => {
      await tx
        .insert(projectMembers)
        .values({
          id: newId(),
          projectId: project.id,
          userId: actor.user.id,
          access: "comment",
          addedBy: actor.user.id,
        })
        .onConflictDoNothing();
      // The joiner's project list now shows it.
      await announceChanged(tx, `user:${actor.user.id}`);
    });
    const [member] = await db
      .select({ access: projectMembers.access })
      .from(projectMembers)
      .where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.userId, actor.user.id)));
    return { data: { access: member?.access ?? ("comment" as const) } };
  },
);
