/**
 * A team's notifications (SPEC §3 team-member-*, §4 member events), made by the notifications consumer
 * like every other: one row per recipient, each published to its recipient's room.
 * Someone added to a team hears 'invited you to team', someone whose access changed hears so, the owner
 * hears that someone left. Never the actor, never a deleted user.
 */
import type { NotificationType, TeamAccess } from "@redline/shared";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { type NewNotificationRow, notifications, teams, users } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import { announceNotifications } from "./notifications.announce.ts";
import { presentNotifications } from "./notifications.presenter.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type TeamNotificationEvent =
  /** An existing user added to a team: them. */
  | { on: "team.member.added"; actor: { userId: string }; teamId: string; userId: string; access: TeamAccess }
  /** A team user's access changed: them. */
  | {
      on: "team.member.access";
      actor: { userId: string };
      teamId: string;
      userId: string;
      access: TeamAccess;
    }
  /** Someone left a team: its owner. */
  | { on: "team.member.left"; actor: { userId: string }; teamId: string };

export const isTeamEvent = (event: { on: string }): event is TeamNotificationEvent =>
  event.on.startsWith("team.");

export async function notifyTeam(tx: Tx, event: TeamNotificationEvent, at = new Date()): Promise<void> {
  const [team] = await tx
    .select({ name: teams.name, ownerId: teams.ownerId })
    .from(teams)
    .where(eq(teams.id, event.teamId));
  if (!team) return;
  const [userId, type]: [string, NotificationType] =
    event.on === "team.member.left"
      ? [team.ownerId, "team-member-left"]
      : [event.userId, event.on === "team.member.added" ? "team-member-add" : "team-member-access"];
  if (userId === event.actor.userId) return;
  const [recipient] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.isDeleted, false)));
  if (!recipient) return;
  const row: NewNotificationRow = {
    id: newId(),
    userId,
    type,
    projectId: null,
    teamId: event.teamId,
    actorId: event.actor.userId,
    createdAt: at,
    context: {
      projectTitle: "",
      teamName: team.name,
      ...(event.on !== "team.member.left" && { access: event.access }),
    },
  };
  const inserted = await tx.insert(notifications).values(row).returning();
  const [notification] = await presentNotifications(tx, inserted);
  await announceNotifications(tx, [{ row: { ...row, projectId: null, teamId: event.teamId }, notification }]);
}
