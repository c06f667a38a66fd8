/** A conversation as a signed-in caller may reach it, and conversations presented for them. */
import type { Access, Conversation } from "@redline/shared";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { conversations } from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { policyActorOf } from "../../lib/policy.ts";
import type { Actor } from "../auth/session.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { authorizeConversation, type ConversationAction } from "./conversations.policy.ts";
import {
  type ConversationRow,
  type ParticipantRow,
  participantsOf,
  presentConversations,
} from "./conversations.service.ts";

export const conversationParams = z.object({ conversationId: z.string().min(1).max(64) });

/** The actor's access to a conversation's place: its project's, or "comment" in their support conversation. */
async function accessTo(
  db: Database,
  actor: Actor,
  conversation: ConversationRow,
  participant: ParticipantRow | null,
): Promise<Access | null> {
  if (!conversation.projectId) return participant ? "comment" : null;
  return loadProject(db, actor, conversation.projectId)
    .then((loaded) => loaded.access)
    .catch(() => null);
}

/** The conversation, authorized for this action (404 unless the actor takes part and still may). */
export async function loadConversation(
  db: Database,
  actor: Actor,
  conversationId: string,
  action: ConversationAction,
) {
  const [conversation] = await db.select().from(conversations).where(eq(conversations.id, conversationId));
  if (!conversation) throw new NotFoundError("Conversation not found.", "conversation-not-found");
  const participants = await participantsOf(db, [conversation.id]);
  const participant = participants.find((p) => p.userId === actor.user.id) ?? null;
  const policyActor = policyActorOf(actor, await accessTo(db, actor, conversation, participant));
  authorizeConversation(policyActor, action, { isParticipant: participant !== null });
  return { conversation, participant: participant!, policyActor };
}

/** Conversations as the actor sees them (those of projects they can no longer open left out). */
export async function presentConversationsFor(
  db: Database,
  actor: Actor,
  rows: ConversationRow[],
): Promise<Conversation[]> {
  // One access check per project, not per conversation.
  const access = new Map<string, Access | null>();
  for (const projectId of new Set(rows.flatMap((row) => (row.projectId ? [row.projectId] : []))))
    access.set(
      projectId,
      await loadProject(db, actor, projectId)
        .then((loaded) => loaded.access)
        .catch(() => null),
    );
  const visible = rows.filter((row) => !row.projectId || access.get(row.projectId));
  return presentConversations(db, visible, (row, participants) => ({
    actor: policyActorOf(actor, row.projectId ? (access.get(row.projectId) ?? null) : "comment"),
    participant: participants.find((p) => p.userId === actor.user.id) ?? null,
  }));
}
