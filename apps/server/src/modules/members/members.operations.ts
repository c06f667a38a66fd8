/**
 * A project's people, the writes (lib/operations.ts): share by e-mail (existing user or invitation),
 * change access, remove (or leave), transfer ownership, choose approvers. Every write authorizes through
 * members.policy.ts.
 */
import {
  addMemberSchema,
  approverSchema,
  productOf,
  resolvePlan,
  SHARING_MESSAGES,
  transferProjectSchema,
  UNLIMITED,
  updateMemberSchema,
} from "@redline/shared";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { notifications, projectMembers, projects, users } from "../../db/schema/index.ts";
import { BadRequestError, HttpError, NotFoundError, PlanLimitError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { approverMail, projectInviteMail } from "../../lib/mail/templates.ts";
import { operation, withParams } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { publish, revokeRoom } from "../../lib/realtime.ts";
import type { Actor } from "../auth/session.ts";
import { planSourcesOf } from "../plans/plans.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { recordMemberEvent } from "./members.events.ts";
import { findUserByEmail, listMembers } from "./members.load.ts";
import { authorizeMember, memberTarget, projectTarget } from "./members.policy.ts";

export const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const memberParams = projectParams.extend({ memberId: z.string().min(1).max(64) });
const approverParams = projectParams.extend({ userId: z.string().min(1).max(64) });

/** Tells a person's open tabs that their access to a project changed: their project lists refetch. */
const accessChanged = (tx: Parameters<typeof publish>[0], userId: string, projectId: string) =>
  publish(tx, `user:${userId}`, { type: "projects.changed", projectId });

const projectLink = (ctx: AppContext, projectId: string) => `${ctx.config.appUrl}/project/${projectId}`;

export const addMember = operation(
  "members.add",
  withParams(projectParams, addMemberSchema),
  async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const { project, access } = await loadProject(db, actor, input.projectId);
    authorizeMember(policyActorOf(actor, access), "members.add");
    const email = input.email.trim().toLowerCase();
    if (email === actor.user.email.toLowerCase()) {
      throw new BadRequestError("You cannot share a project with yourself.", "share-self");
    }
    const user = await findUserByEmail(db, email);
    if (user?.id === project.ownerId)
      throw new BadRequestError("This person owns the project.", "share-owner");
    const values = user
      ? { userId: user.id, email: null, target: projectMembers.userId }
      : { userId: null, email, target: projectMembers.email };
    const member = await db.transaction(async (tx) => {
      // Shares are counted under the project's row lock (SPEC §9: collaborators per project, from the
      // owner's plan); changing the access of someone already in the project is not a new share.
      await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, project.id)).for("update");
      const current = await tx
        .select({ userId: projectMembers.userId, email: projectMembers.email })
        .from(projectMembers)
        .where(eq(projectMembers.projectId, project.id));
      const isMember = current.some((row) => (user ? row.userId === user.id : row.email === email));
      if (!isMember) {
        const [owner] = await tx.select().from(users).where(eq(users.id, project.ownerId));
        const product = productOf(project.type);
        const limit = owner
          ? resolvePlan(planSourcesOf(owner), product, ctx.config.plansEnabled).entitlements.collaborators
          : UNLIMITED;
        if (limit !== UNLIMITED && current.length >= limit)
          throw new PlanLimitError(
            "collaborator-limit",
            `This project can be shared with ${limit} people on its owner's plan. Upgrade to add more.`,
            { kind: "collaborators", product, limit },
          );
      }
      const [row] = await tx
        .insert(projectMembers)
        .values({
          id: newId(),
          projectId: project.id,
          userId: values.userId,
          email: values.email,
          access: input.access,
          addedBy: actor.user.id,
        })
        .onConflictDoUpdate({
          target: [projectMembers.projectId, values.target],
          set: { access: input.access },
        })
        // xmax is 0 on a row this statement inserted (not on one it updated): only a newcomer is told.
        .returning({ id: projectMembers.id, isNew: sql<boolean>`(xmax = 0)` });
      if (user)
        await recordMemberEvent(tx, {
          type: "member.added",
          actor: { userId: actor.user.id },
          projectId: project.id,
          userId: user.id,
          isNew: row?.isNew === true,
        });
      return row;
    });
    await ctx.mailer.send(
      projectInviteMail({
        to: user?.email ?? email,
        inviter: actor.user.displayName || actor.user.email,
        projectTitle: project.title,
        access: input.access,
        url: projectLink(ctx, project.id),
        isNewUser: !user,
      }),
    );
    return { data: { id: member!.id, isPending: !user }, message: SHARING_MESSAGES.shared };
  },
);

/** A person of the project (by membership id), with the caller as the members policy sees them. */
async function memberOf(db: Database, actor: Actor, projectId: string, memberId: string) {
  const { project, access } = await loadProject(db, actor, projectId);
  const writer = policyActorOf(actor, access);
  authorizeMember(writer, "members.read");
  const [member] = await db
    .select()
    .from(projectMembers)
    .where(and(eq(projectMembers.id, memberId), eq(projectMembers.projectId, project.id)));
  if (!member) throw new NotFoundError("This person is not in the project.", "member-not-found");
  return { project, writer, member };
}

export const updateMemberAccess = operation(
  "members.update",
  withParams(memberParams, updateMemberSchema),
  async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const { projectId, memberId } = input;
    const { project, writer, member } = await memberOf(db, actor, projectId, memberId);
    authorizeMember(writer, "members.update", { userId: member.userId, isPending: member.userId === null });
    const [updated] = await db
      .update(projectMembers)
      .set({ access: input.access })
      .where(and(eq(projectMembers.id, memberId), eq(projectMembers.projectId, project.id)))
      .returning();
    if (!updated) throw new NotFoundError("This person is not in the project.", "member-not-found");
    if (updated.userId) await accessChanged(db, updated.userId, project.id);
    return { message: SHARING_MESSAGES.accessUpdated };
  },
);

export const removeMember = operation("members.remove", memberParams, async (ctx, actor: Actor, input) => {
  const { db } = ctx.database;
  const { projectId, memberId } = input;
  const { project, writer, member } = await memberOf(db, actor, projectId, memberId);
  const isSelf = member.userId === actor.user.id;
  const target = { userId: member.userId, isPending: member.userId === null };
  authorizeMember(writer, isSelf ? "members.leave" : "members.remove", target);
  await db.transaction(async (tx) => {
    await tx.delete(projectMembers).where(eq(projectMembers.id, member.id));
    if (member.userId) {
      await tx
        .update(projects)
        .set({ approvers: sql`array_remove(${projects.approvers}, ${member.userId})` })
        .where(eq(projects.id, project.id));
      // Their open tabs stop hearing about the project at once, and what they were told about it
      // goes: each item would open a project they can no longer see.
      await revokeRoom(tx, `project:${project.id}`, member.userId);
      await tx
        .delete(notifications)
        .where(and(eq(notifications.userId, member.userId), eq(notifications.projectId, project.id)));
      await publish(tx, `user:${member.userId}`, { type: "notifications.changed" });
      await accessChanged(tx, member.userId, project.id);
    }
  });
  return { message: isSelf ? SHARING_MESSAGES.removedSelf : SHARING_MESSAGES.removed };
});

export const transferProject = operation(
  "projects.transfer",
  withParams(projectParams, transferProjectSchema),
  async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const { project, access } = await loadProject(db, actor, input.projectId);
    const writer = policyActorOf(actor, access);
    authorizeMember(writer, "members.read");
    const { to } = input;
    authorizeMember(writer, "projects.transfer", { userId: to });
    await db.transaction(async (tx) => {
      await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, project.id)).for("update");
      const [target] = await tx
        .select()
        .from(projectMembers)
        .where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.userId, to)));
      if (!target) throw new HttpError(409, "not-a-member", "Share the project with this person first.");
      await tx.delete(projectMembers).where(eq(projectMembers.id, target.id));
      // The old owner keeps the project, with edit access (SPEC §4).
      await tx.insert(projectMembers).values({
        id: newId(),
        projectId: project.id,
        userId: project.ownerId,
        access: "edit",
        addedBy: actor.user.id,
      });
      await tx
        .update(projects)
        .set({ ownerId: to, modifiedAt: new Date() })
        .where(eq(projects.id, project.id));
      await accessChanged(tx, to, project.id);
      await accessChanged(tx, project.ownerId, project.id);
    });
    return { data: { owner: to } };
  },
);

export const setApprover = operation(
  "approvers.manage",
  withParams(approverParams, approverSchema),
  async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const { projectId, userId, isApprover } = input;
    const { project, access } = await loadProject(db, actor, projectId);
    const writer = policyActorOf(actor, access);
    authorizeMember(writer, "approvers.manage", projectTarget(project));
    const people = await listMembers(db, project);
    const person = people.find((p) => p.uid === userId);
    if (!person) throw new NotFoundError("This person is not in the project.", "member-not-found");
    authorizeMember(writer, "approvers.manage", memberTarget(person, project));
    await db.transaction(async (tx) => {
      const [before] = await tx
        .update(projects)
        .set({
          approvers: isApprover
            ? sql`array_append(array_remove(${projects.approvers}, ${userId}), ${userId})`
            : sql`array_remove(${projects.approvers}, ${userId})`,
        })
        .where(eq(projects.id, project.id))
        .returning({ approvers: projects.approvers });
      // Made an approver just now (not again): they are told in the bell too.
      await recordMemberEvent(tx, {
        type: "member.approver",
        actor: { userId: actor.user.id },
        projectId: project.id,
        userId,
        made:
          isApprover && !project.approvers.includes(userId) && before?.approvers.includes(userId) === true,
      });
    });
    if (isApprover && userId !== actor.user.id && person.email) {
      const [owner] = await db.select().from(users).where(eq(users.id, project.ownerId));
      await ctx.mailer.send(
        approverMail({
          to: person.email,
          ownerName: owner?.displayName || owner?.email || "The owner",
          projectTitle: project.title,
          url: projectLink(ctx, project.id),
        }),
      );
    }
    return { message: SHARING_MESSAGES.approverUpdated };
  },
);
