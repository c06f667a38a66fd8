/**
 * The writes on a team's people (SPEC §4, §6, §7 remove-from-team; lib/operations.ts): invite by e-mail
 * (the `team-invite` mail names who invited: an existing user joins at once, an unknown address gets a
 * pending invitation claimed when it signs in verified), change a role (the `team-access` mail), remove a
 * member or a collaborator, leave. A person is addressed by their membership id, or by their user id (so
 * the owner can be named, and refused). Every operation authorizes through teams.policy.ts.
 */
import {
  inviteTeamMemberSchema,
  TEAM_MESSAGES,
  type TeamAccess,
  updateTeamMemberSchema,
} from "@redline/shared";
import { and, eq, inArray, isNull, ne, or } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import {
  notifications,
  projectCollaborators,
  projectMembers,
  projects,
  type TeamMemberRow,
  type TeamRow,
  teamMembers,
  teams,
  users,
} from "../../db/schema/index.ts";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { teamAccessMail, teamInviteMail } from "../../lib/mail/templates.ts";
import { operation, withParams } from "../../lib/operations.ts";
import { publish, revokeRoom } from "../../lib/realtime.ts";
import type { Actor } from "../auth/session.ts";
import { findUserByEmail } from "../members/members.load.ts";
import { teamFor, teamParams } from "./teams.access.ts";
import { teamChanged } from "./teams.load.ts";
import { authorizeTeam, type TeamAction, type TeamResource, teamActor } from "./teams.policy.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export const memberParams = teamParams.extend({ memberId: z.string().min(1).max(64) });

/** The person a route names: the owner (by user id), or a membership (by its id or its user's id). */
type Target = { kind: "owner"; userId: string } | { kind: "membership"; row: TeamMemberRow };

async function targetOf(db: Database, team: TeamRow, memberId: string): Promise<Target> {
  if (memberId === team.ownerId) return { kind: "owner", userId: team.ownerId };
  const [row] = await db
    .select()
    .from(teamMembers)
    .where(
      and(
        eq(teamMembers.teamId, team.id),
        or(eq(teamMembers.id, memberId), eq(teamMembers.userId, memberId)),
      ),
    );
  if (!row) throw new NotFoundError(TEAM_MESSAGES.notMember, "team-member-not-found");
  return { kind: "membership", row };
}

const resourceOf = (team: TeamRow, target: Target): TeamResource => ({
  isDisabled: team.isDisabled,
  member:
    target.kind === "owner"
      ? { userId: target.userId, isOwner: true }
      : { userId: target.row.userId, isOwner: false },
});

/** Someone no longer in a team loses what they were told about it: each item would open a team they cannot see. */
async function forgetTeam(tx: Tx, teamId: string, userId: string): Promise<void> {
  await tx
    .delete(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.teamId, teamId)));
  // Out of the team, out of its projects: the collaborator toggles go, and open project rooms close.
  // Their own projects stay theirs (ADR 0012), and so do those shared with them by e-mail.
  const teamProjects = await tx
    .select({ id: projects.id })
    .from(projects)
    .leftJoin(
      projectMembers,
      and(eq(projectMembers.projectId, projects.id), eq(projectMembers.userId, userId)),
    )
    .where(and(eq(projects.teamId, teamId), ne(projects.ownerId, userId), isNull(projectMembers.id)));
  if (teamProjects.length > 0)
    await tx.delete(projectCollaborators).where(
      and(
        eq(projectCollaborators.userId, userId),
        inArray(
          projectCollaborators.projectId,
          teamProjects.map(({ id }) => id),
        ),
      ),
    );
  for (const { id } of teamProjects) await revokeRoom(tx, `project:${id}`, userId);
  // Their project lists refetch on the teams.changed event teamChanged sends them.
  await publish(tx, `user:${userId}`, { type: "notifications.changed" });
}

const teamLink = (ctx: AppContext, teamId: string) => `${ctx.config.appUrl}/team/${teamId}`;
const signUpLink = (ctx: AppContext, teamId: string) =>
  `${ctx.config.appUrl}/signup?${new URLSearchParams({ goto: `/team/${teamId}` })}`;

/** Loads the team and the membership named, and authorizes the action on that person. */
async function membershipFor(
  db: Database,
  actor: Actor,
  { teamId, memberId }: z.output<typeof memberParams>,
  action: TeamAction,
) {
  const { team, role } = await teamFor(db, actor, teamId, "teams.read");
  const target = await targetOf(db, team, memberId);
  const isCollaborator = target.kind === "membership" && target.row.access === "collaborator";
  // Collaborators are removed from the collaborators list only, members from the members list only.
  if (action === "teams.removeCollaborator" && !isCollaborator)
    throw new NotFoundError(TEAM_MESSAGES.notCollaborator, "team-collaborator-not-found");
  if (action === "teams.removeMember" && isCollaborator)
    throw new NotFoundError(TEAM_MESSAGES.notMember, "team-member-not-found");
  authorizeTeam(teamActor(actor.user.id, role), action, resourceOf(team, target));
  // The policy never lets anyone act on the owner; said again for the type.
  if (target.kind === "owner") throw new ForbiddenError(TEAM_MESSAGES.ownerUntouchable, "team-owner");
  return { team, member: target.row };
}

export const inviteTeamMember = operation(
  "teams.invite",
  withParams(teamParams, inviteTeamMemberSchema),
  async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const { team, role } = await teamFor(db, actor, input.teamId, "teams.addMembers");
    const email = input.email.trim().toLowerCase();
    if (email === actor.user.email.toLowerCase())
      throw new BadRequestError(TEAM_MESSAGES.inviteSelf, "team-invite-self");
    const user = await findUserByEmail(db, email);
    const member = await db.transaction(async (tx) => {
      // Under the team's row lock: a team disabled meanwhile takes no one, and two invitations of one
      // address at once make one row (the unique indexes make sure of it either way).
      const [locked] = await tx.select().from(teams).where(eq(teams.id, team.id)).for("update");
      if (!locked) throw new NotFoundError(TEAM_MESSAGES.notAccessible, "team-not-accessible");
      authorizeTeam(teamActor(actor.user.id, role), "teams.addMembers", {
        isDisabled: locked.isDisabled,
      });
      if (user?.id === locked.ownerId)
        throw new ConflictError(TEAM_MESSAGES.alreadyInTeam, "team-member-exists");
      const existing = await tx
        .select({ id: teamMembers.id })
        .from(teamMembers)
        .where(
          and(
            eq(teamMembers.teamId, team.id),
            user
              ? or(eq(teamMembers.userId, user.id), eq(teamMembers.email, email))
              : eq(teamMembers.email, email),
          ),
        );
      if (existing.length > 0) throw new ConflictError(TEAM_MESSAGES.alreadyInTeam, "team-member-exists");
      const [row] = await tx
        .insert(teamMembers)
        .values({
          id: newId(),
          teamId: team.id,
          userId: user?.id ?? null,
          email: user ? null : email,
          access: input.access,
          invitedBy: actor.user.id,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new ConflictError(TEAM_MESSAGES.alreadyInTeam, "team-member-exists");
      await teamChanged(
        tx,
        team.id,
        [],
        user
          ? {
              on: "team.member.added",
              actor: { userId: actor.user.id },
              teamId: team.id,
              userId: user.id,
              access: input.access,
            }
          : undefined,
      );
      return row;
    });
    // After commit, like a project invitation (the mailer is the outbox unless SMTP is configured).
    // SPEC §7 `team-invite` names who added them: an existing user opens the team, an address signs up.
    await ctx.mailer.send(
      teamInviteMail({
        to: user?.email ?? email,
        teamAdmin: actor.user.displayName || actor.user.email,
        teamName: team.name,
        access: input.access,
        url: user ? teamLink(ctx, team.id) : signUpLink(ctx, team.id),
        isNewUser: !user,
      }),
    );
    return {
      data: { id: member.id, isPending: !user },
      message: !user
        ? TEAM_MESSAGES.invited
        : input.access === "collaborator"
          ? TEAM_MESSAGES.collaboratorAdded
          : TEAM_MESSAGES.added,
    };
  },
);

export const changeTeamMemberRole = operation(
  "teams.changeRole",
  withParams(memberParams, updateTeamMemberSchema),
  async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const { team, member } = await membershipFor(db, actor, input, "teams.changeRole");
    const { access } = input;
    const to = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(teamMembers)
        .set({ access })
        .where(eq(teamMembers.id, member.id))
        .returning();
      if (!updated) throw new NotFoundError(TEAM_MESSAGES.notMember, "team-member-not-found");
      await teamChanged(
        tx,
        team.id,
        [],
        updated.userId && member.access !== access
          ? {
              on: "team.member.access",
              actor: { userId: actor.user.id },
              teamId: team.id,
              userId: updated.userId,
              access: access satisfies TeamAccess,
            }
          : undefined,
      );
      if (member.access === access) return null;
      if (!updated.userId) return { email: updated.email!, url: signUpLink(ctx, team.id) };
      const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, updated.userId));
      return user ? { email: user.email, url: teamLink(ctx, team.id) } : null;
    });
    // SPEC §7 `team-access`: the person hears of their new access (an invitation still pending too).
    if (to) await ctx.mailer.send(teamAccessMail({ to: to.email, teamName: team.name, access, url: to.url }));
    return { message: TEAM_MESSAGES.accessUpdated };
  },
);

const removal = (action: "teams.removeMember" | "teams.removeCollaborator", message: string) =>
  operation(action, memberParams, async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const { team, member } = await membershipFor(db, actor, input, action);
    await db.transaction(async (tx) => {
      await tx.delete(teamMembers).where(eq(teamMembers.id, member.id));
      if (member.userId) await forgetTeam(tx, team.id, member.userId);
      await teamChanged(tx, team.id, [member.userId]);
    });
    return { message };
  });

export const removeTeamMember = removal("teams.removeMember", TEAM_MESSAGES.removed);
export const removeTeamCollaborator = removal("teams.removeCollaborator", TEAM_MESSAGES.collaboratorRemoved);

export const leaveTeam = operation("teams.leave", teamParams, async (ctx, actor: Actor, { teamId }) => {
  const { db } = ctx.database;
  const { team } = await teamFor(db, actor, teamId, "teams.leave");
  await db.transaction(async (tx) => {
    await tx
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, actor.user.id)));
    await forgetTeam(tx, team.id, actor.user.id);
    await teamChanged(tx, team.id, [actor.user.id], {
      on: "team.member.left",
      actor: { userId: actor.user.id },
      teamId: team.id,
    });
  });
  return { message: TEAM_MESSAGES.left };
});
