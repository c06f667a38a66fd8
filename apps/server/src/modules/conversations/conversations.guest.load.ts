/**
 * A public link's guest as the conversations policy sees them, shared by the guest's HTTP routes and its
 * realtime socket: the project while its link is on (and not archived), the guest's access through it, and
 * the guest's own conversation there, found by the hash of the key their browser keeps.
 */
import { normalizeSharing } from "@redline/shared";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { conversations, projects } from "../../db/schema/index.ts";
import { LINK_VISITOR, type PolicyActor, policyActorOf } from "../../lib/policy.ts";
import { guestsReadOnly } from "../project-access/projects.load.ts";
import { guestAccess } from "../project-access/projects.policy.ts";
import { canConversation } from "./conversations.policy.ts";
import { type ConversationRow, type ParticipantRow, participantsOf } from "./conversations.service.ts";

type ProjectRow = typeof projects.$inferSelect;

/** The project and the guest's policy actor while the link is on; null otherwise. */
export async function guestOfProject(
  db: Database,
  plansEnabled: boolean,
  projectId: string,
): Promise<{ project: ProjectRow; actor: PolicyActor } | null> {
  const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
  const access = guestAccess(
    project && !project.isArchived ? normalizeSharing(project.sharing) : null,
    project ? await guestsReadOnly(db, project, plansEnabled) : false,
  );
  if (!project || !access) return null;
  return { project, actor: policyActorOf(LINK_VISITOR, access) };
}

export async function findGuestConversation(
  db: Database,
  projectId: string,
  keyHash: string,
): Promise<ConversationRow | null> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.projectId, projectId), eq(conversations.guestKeyHash, keyHash)));
  return row ?? null;
}

/** The guest's own participant row of a conversation (one per guest conversation). */
export async function guestParticipantOf(
  db: Database,
  conversationId: string,
): Promise<ParticipantRow | null> {
  return (await participantsOf(db, [conversationId])).find((p) => p.isGuest) ?? null;
}

/**
 * The guest's conversation in the project with their participant row, when the policy lets them read it
 * now (link on, they take part); null otherwise. The realtime socket asks on joining and before each event.
 */
export async function readableGuestConversation(
  db: Database,
  plansEnabled: boolean,
  projectId: string,
  keyHash: string,
): Promise<{ conversation: ConversationRow; participant: ParticipantRow } | null> {
  const guest = await guestOfProject(db, plansEnabled, projectId);
  if (!guest) return null;
  const conversation = await findGuestConversation(db, projectId, keyHash);
  const participant = conversation ? await guestParticipantOf(db, conversation.id) : null;
  if (!conversation || !participant) return null;
  if (!canConversation(guest.actor, "conversations.read", { isParticipant: true })) return null;
  return { conversation, participant };
}
