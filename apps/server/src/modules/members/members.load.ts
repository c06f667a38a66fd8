import type { ProjectMember } from "@redline/shared";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { type ProjectRow, projectMembers, type UserRow, users } from "../../db/schema/index.ts";
import { announceChanged } from "../../lib/realtime.ts";

/** The first non-deleted user with this e-mail (SPEC §5), case-insensitive. */
export async function findUserByEmail(db: Database, email: string): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, eq(users.isDeleted, false)))
    .orderBy(asc(users.createdAt))
    .limit(1);
  return user ?? null;
}

// Filled in for each reader by the members policy (withMemberAbilities).
const NO_ABILITIES = {
  changeAccess: false,
  remove: false,
  leave: false,
  makeOwner: false,
  toggleApprover: false,
};

/** Owner first, then members in the order they were added; invitations show their e-mail. */
export async function listMembers(db: Database, project: ProjectRow): Promise<ProjectMember[]> {
  const [owner] = await db.select().from(users).where(eq(users.id, project.ownerId));
  const rows = await db
    .select({ member: projectMembers, user: users })
    .from(projectMembers)
    .leftJoin(users, eq(users.id, projectMembers.userId))
    .where(eq(projectMembers.projectId, project.id))
    .orderBy(asc(projectMembers.createdAt), asc(projectMembers.id));
  const approvers = new Set(project.approvers);
  const people: ProjectMember[] = [];
  if (owner) {
    people.push({
      id: null,
      uid: owner.id,
      email: owner.email,
      displayName: owner.displayName,
      photoURL: owner.photoURL,
      access: "owner",
      isPending: false,
      isApprover: approvers.has(owner.id),
      abilities: NO_ABILITIES,
    });
  }
  for (const { member, user } of rows) {
    people.push({
      id: member.id,
      uid: member.userId,
      email: user?.email ?? member.email,
      displayName: user?.displayName ?? member.email ?? "",
      photoURL: user?.photoURL ?? null,
      access: member.access,
      isPending: member.userId === null,
      isApprover: member.userId !== null && approvers.has(member.userId),
      abilities: NO_ABILITIES,
    });
  }
  return people;
}

/**
 * Invitations sent to an e-mail become that user's entries once the e-mail is verified. An entry the
 * user already has in the same project wins; the invitation is then dropped.
 */
export async function claimInvitations(db: Database, user: { id: string; email: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const email = user.email.toLowerCase();
    await tx.execute(sql`
      delete from ${projectMembers} invite
      where invite.email = ${email} and invite.user_id is null
        and exists (select 1 from ${projectMembers} existing
                    where existing.project_id = invite.project_id and existing.user_id = ${user.id})`);
    await tx
      .update(projectMembers)
      .set({ userId: user.id, email: null })
      .where(and(eq(projectMembers.email, email), isNull(projectMembers.userId)));
    // Their project list, kept in any process, now shows these projects.
    await announceChanged(tx, `user:${user.id}`);
  });
}
