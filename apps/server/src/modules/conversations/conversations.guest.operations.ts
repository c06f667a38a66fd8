/**
 * Messages through the public link, the writes (lib/operations.ts): a link guest (no account) opens their
 * conversation with the project's people, sends, marks read — while the link is on. The guest's browser
 * keeps a random key; its hash finds the guest's one conversation per project, so knowing a guest's name
 * is not enough to reach it. The name shown is the comment identity (SPEC §3; `public` is 'Anonymous User').
 */
import {
  guestKeySchema,
  PUBLIC_GUEST,
  parseGuestIdentity,
  SHARING_MESSAGES,
  sendMessageSchema,
} from "@redline/shared";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { conversationParticipants, conversations } from "../../db/schema/index.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { operation, withParams } from "../../lib/operations.ts";
import type { PolicyActor } from "../../lib/policy.ts";
import type { LinkGuestPrincipal } from "../../lib/principal.ts";
import { authorizeNewEntry } from "../discussion/discussion.ts";
import { findGuestConversation, guestOfProject, guestParticipantOf } from "./conversations.guest.load.ts";
import {
  authorizeConversation,
  type ConversationAction,
  conversationDiscussion,
} from "./conversations.policy.ts";
import {
  addParticipants,
  type ConversationRow,
  hashGuestKey,
  markRead,
  presentConversations,
  projectPeopleRows,
  sendMessage,
} from "./conversations.service.ts";

export const guestProjectParams = z.object({ projectId: z.string().min(1).max(64) });

/** The project, while its public link is on, and the guest as the policy sees them. */
export async function linkGuestIn(
  db: Database,
  plansEnabled: boolean,
  guest: LinkGuestPrincipal,
  projectId: string,
) {
  const found = await guestOfProject(db, plansEnabled, projectId);
  if (!found) throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
  const key = guestKeySchema.safeParse(guest.key);
  if (!key.success)
    throw new BadRequestError("Your browser did not send its guest key: reload the page.", "guest-key");
  return { ...found, keyHash: hashGuestKey(key.data) };
}

/** The guest's conversation, authorized for this action (404 when they have none). */
export async function loadGuestConversation(
  db: Database,
  plansEnabled: boolean,
  guest: LinkGuestPrincipal,
  projectId: string,
  action: ConversationAction,
) {
  const { project, actor, keyHash } = await linkGuestIn(db, plansEnabled, guest, projectId);
  const conversation = await findGuestConversation(db, project.id, keyHash);
  const participant = conversation ? await guestParticipantOf(db, conversation.id) : null;
  authorizeConversation(actor, action, { isParticipant: participant !== null });
  return { project, actor, conversation: conversation!, participant: participant! };
}

export const presentGuestConversation = async (db: Database, actor: PolicyActor, row: ConversationRow) =>
  (
    await presentConversations(db, [row], (_row, participants) => ({
      actor,
      participant: participants.find((p) => p.isGuest) ?? null,
    }))
  )[0]!;

/** Opens (or starts) the guest's conversation with the project's people; `created` when it is new. */
export const openGuestConversation = operation(
  "conversations.guest.open",
  guestProjectParams,
  async (ctx, guest: LinkGuestPrincipal, { projectId }) => {
    const { db } = ctx.database;
    const { project, actor, keyHash } = await linkGuestIn(db, ctx.config.plansEnabled, guest, projectId);
    authorizeConversation(actor, "conversations.start", { isParticipant: false });
    const identity = parseGuestIdentity(guest.identity ?? undefined);
    if (!identity) throw new BadRequestError("Tell us your name before sending a message.", "guest-identity");
    let conversation = await findGuestConversation(db, project.id, keyHash);
    let created = false;
    if (!conversation) {
      const id = newId();
      const people = await projectPeopleRows(db, id, project.id);
      await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(conversations)
          .values({ id, kind: "project", projectId: project.id, guestKeyHash: keyHash })
          .onConflictDoNothing()
          .returning();
        if (!made) return;
        await tx.insert(conversationParticipants).values({
          id: newId(),
          conversationId: id,
          displayName: identity.name,
          photoURL: identity.avatar,
          isGuest: true,
          isAnonymous: guest.identity === PUBLIC_GUEST,
        });
        await addParticipants(tx, people);
        created = true;
      });
      conversation = await findGuestConversation(db, project.id, keyHash);
    }
    return { created, data: await presentGuestConversation(db, actor, conversation!) };
  },
);

export const sendGuestMessage = operation(
  "conversations.guest.send",
  withParams(guestProjectParams, sendMessageSchema),
  async (ctx, guest: LinkGuestPrincipal, { projectId, ...input }) => {
    const { db } = ctx.database;
    const { project, actor, conversation, participant } = await loadGuestConversation(
      db,
      ctx.config.plansEnabled,
      guest,
      projectId,
      "conversations.send",
    );
    authorizeNewEntry(conversationDiscussion(true), actor, input);
    // People who joined the project since the conversation began take part too.
    await addParticipants(db, await projectPeopleRows(db, conversation.id, project.id));
    return {
      data: await sendMessage(db, ctx.storage, conversation, participant, input, ctx.config.plansEnabled),
    };
  },
);

export const markGuestConversationRead = operation(
  "conversations.guest.markRead",
  guestProjectParams,
  async (ctx, guest: LinkGuestPrincipal, { projectId }) => {
    const { db } = ctx.database;
    const { conversation, participant } = await loadGuestConversation(
      db,
      ctx.config.plansEnabled,
      guest,
      projectId,
      "conversations.read",
    );
    await markRead(db, conversation.id, participant);
    return { data: { read: true } };
  },
);
