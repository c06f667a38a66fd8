/**
 * The messages area's writes for signed-in people (lib/operations.ts): start a conversation in a
 * project, open the support conversation ('Need help?'), send a message, mark read. A message the user
 * sends in their support conversation is also mailed to the installation's support address (durable
 * outbox), Reply-To the user.
 */
import { type SendMessageInput, sendMessageSchema, startConversationSchema } from "@redline/shared";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { conversationParticipants, conversations } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { supportConversationMail } from "../../lib/mail/support-templates.ts";
import { operation, withParams } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import type { Actor } from "../auth/session.ts";
import { authorizeNewEntry } from "../discussion/discussion.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { boardPeople } from "../tickets/tickets.load.ts";
import { conversationParams, loadConversation, presentConversationsFor } from "./conversations.access.ts";
import { authorizeConversation, conversationDiscussion } from "./conversations.policy.ts";
import {
  type ConversationRow,
  markRead,
  participantsOf,
  sendMessage,
  supportAccount,
} from "./conversations.service.ts";

const participantOf = (
  conversationId: string,
  person: { id: string; displayName: string; photoURL: string | null },
) => ({
  id: newId(),
  conversationId,
  userId: person.id,
  displayName: person.displayName,
  photoURL: person.photoURL,
});

/** Opens the conversation of these people in a project, or starts it; `created` when it is new. */
export const startConversation = operation(
  "conversations.start",
  startConversationSchema,
  async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const { project, access } = await loadProject(db, actor, input.projectId);
    authorizeConversation(policyActorOf(actor, access), "conversations.start", {
      isParticipant: false,
    });
    const people = await boardPeople(db, project.id);
    const others = [...new Set(input.participantIds)].filter((id) => id !== actor.user.id);
    if (others.length === 0 || others.some((id) => !people.has(id)))
      throw new BadRequestError("Choose people of this project to talk with.", "not-project-people");
    const wanted = new Set([actor.user.id, ...others]);
    // The same people in the same project keep one conversation.
    const candidates = await db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.projectId, project.id),
          eq(conversations.kind, "project"),
          isNull(conversations.guestKeyHash),
        ),
      );
    const participants = await participantsOf(
      db,
      candidates.map((row) => row.id),
    );
    const same = candidates.find((row) => {
      const own = participants.filter((p) => p.conversationId === row.id);
      return own.length === wanted.size && own.every((p) => p.userId && wanted.has(p.userId));
    });
    if (same) return { created: false, data: (await presentConversationsFor(db, actor, [same]))[0] };
    const id = newId();
    await db.transaction(async (tx) => {
      await tx.insert(conversations).values({ id, kind: "project", projectId: project.id });
      await tx.insert(conversationParticipants).values(
        [...wanted].map((userId) => {
          const person = people.get(userId);
          return {
            id: newId(),
            conversationId: id,
            userId,
            displayName: person?.displayName ?? actor.user.displayName,
            photoURL: person?.photoURL ?? actor.user.photoURL ?? null,
          };
        }),
      );
    });
    const [row] = await db.select().from(conversations).where(eq(conversations.id, id));
    return { created: true, data: (await presentConversationsFor(db, actor, [row!]))[0] };
  },
);

/** 'Need help?': the user's conversation with this installation's support, made on first use. */
export const openSupportConversation = operation(
  "conversations.support",
  z.object({}).strict(),
  async (ctx, actor: Actor) => {
    const { db } = ctx.database;
    const existing = async () =>
      (await db.select().from(conversations).where(eq(conversations.supportUserId, actor.user.id)))[0];
    let row = await existing();
    let created = false;
    if (!row) {
      const support = await supportAccount(db, ctx.config.supportEmail);
      const id = newId();
      await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(conversations)
          .values({ id, kind: "support", supportUserId: actor.user.id })
          .onConflictDoNothing()
          .returning();
        if (!made) return;
        await tx.insert(conversationParticipants).values([
          {
            id: newId(),
            conversationId: id,
            userId: actor.user.id,
            displayName: actor.user.displayName || actor.user.email,
            photoURL: actor.user.photoURL ?? null,
          },
          ...(support && support.id !== actor.user.id ? [participantOf(id, support)] : []),
        ]);
        created = true;
      });
      row = await existing();
    }
    return { created, data: (await presentConversationsFor(db, actor, [row!]))[0] };
  },
);

/** An account with the support address made after the conversation began joins it now. */
async function joinSupportAccount(db: Database, supportEmail: string, conversation: ConversationRow) {
  const support = await supportAccount(db, supportEmail);
  if (!support || support.id === conversation.supportUserId) return;
  await db
    .insert(conversationParticipants)
    .values(participantOf(conversation.id, support))
    .onConflictDoNothing();
}

export const sendConversationMessage = operation(
  "conversations.send",
  withParams(conversationParams, sendMessageSchema),
  async (ctx, actor: Actor, { conversationId, ...input }) => {
    const { db } = ctx.database;
    const { conversation, participant, policyActor } = await loadConversation(
      db,
      actor,
      conversationId,
      "conversations.send",
    );
    authorizeNewEntry(conversationDiscussion(true), policyActor, input);
    const isAsker = conversation.kind === "support" && conversation.supportUserId === actor.user.id;
    if (isAsker) await joinSupportAccount(db, ctx.config.supportEmail, conversation);
    const message = await sendMessage(
      db,
      ctx.storage,
      conversation,
      participant,
      input as SendMessageInput,
      ctx.config.plansEnabled,
    );
    if (isAsker)
      await ctx.mailer.send(
        supportConversationMail({
          to: ctx.config.supportEmail,
          sender: { name: actor.user.displayName || actor.user.email, email: actor.user.email },
          message: input.message,
          attachments: input.attachments.map((attachment) => attachment.name),
        }),
      );
    return { data: message };
  },
);

export const markConversationRead = operation(
  "conversations.markRead",
  conversationParams,
  async (ctx, actor: Actor, { conversationId }) => {
    const { db } = ctx.database;
    const { conversation, participant } = await loadConversation(
      db,
      actor,
      conversationId,
      "conversations.read",
    );
    await markRead(db, conversation.id, participant);
    return { data: { read: true } };
  },
);
