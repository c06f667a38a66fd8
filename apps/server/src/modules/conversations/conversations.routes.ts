/**
 * The messages area for signed-in people: their conversations (with unread counts and the SPEC §3 title
 * and preview), starting one in a project, messages (paged), sending with attachments, marking read, and
 * the header's unread total. 'Need help?' opens the user's support conversation: each message the user
 * sends there is also mailed to the installation's support address (durable outbox), Reply-To the user;
 * an account with that address takes part and answers in its own messages area.
 */

import type { Access } from "@redline/shared";
import {
  type Conversation,
  type ConversationPerson,
  conversationPeopleQuerySchema,
  messagesQuerySchema,
  type SendMessageInput,
  sendMessageSchema,
  startConversationSchema,
} from "@redline/shared";
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { conversationParticipants, conversations } from "../../db/schema/index.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { supportConversationMail } from "../../lib/mail/support-templates.ts";
import { memberActor } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { type Actor, requireActor } from "../auth/session.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { boardPeople } from "../tickets/tickets.load.ts";
import { roomInProject, serveAttachment, uploadAttachment } from "./conversations.files.ts";
import { authorizeConversation, type ConversationAction } from "./conversations.policy.ts";
import {
  type ConversationRow,
  listMessages,
  markRead,
  type ParticipantRow,
  participantsOf,
  presentConversations,
  sendMessage,
  supportAccount,
} from "./conversations.service.ts";

const conversationParams = z.object({ conversationId: z.string().min(1).max(64) });
const MAX_LISTED = 100;

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

export async function conversationsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth, storage, mailer } = ctx;
  const { db } = ctx.database;

  /** The conversation, authorized for this action (404 unless the actor takes part and still may). */
  async function load(request: FastifyRequest, action: ConversationAction) {
    const actor = await requireActor(auth, db, request);
    const { conversationId } = conversationParams.parse(request.params);
    const [conversation] = await db.select().from(conversations).where(eq(conversations.id, conversationId));
    if (!conversation) throw new NotFoundError("Conversation not found.", "conversation-not-found");
    const participants = await participantsOf(db, [conversation.id]);
    const participant = participants.find((p) => p.userId === actor.user.id) ?? null;
    const policyActor = memberActor(actor.user.id, await accessTo(db, actor, conversation, participant));
    authorizeConversation(policyActor, action, { isParticipant: participant !== null });
    return { actor, conversation, participant: participant!, policyActor };
  }

  const present = async (actor: Actor, rows: ConversationRow[]): Promise<Conversation[]> => {
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
      actor: memberActor(actor.user.id, row.projectId ? (access.get(row.projectId) ?? null) : "comment"),
      participant: participants.find((p) => p.userId === actor.user.id) ?? null,
    }));
  };

  const mine = async (actor: Actor) => {
    const taking = db
      .select({ id: conversationParticipants.conversationId })
      .from(conversationParticipants)
      .where(eq(conversationParticipants.userId, actor.user.id));
    const rows = await db
      .select()
      .from(conversations)
      .where(inArray(conversations.id, taking))
      .orderBy(desc(conversations.lastMessageAt))
      .limit(MAX_LISTED);
    return present(actor, rows);
  };

  app.get(
    "/api/conversations",
    route({ summary: "My conversations, newest first, with unread counts", action: "conversations.read" }),
    async (request) => ({ data: await mine(await requireActor(auth, db, request)) }),
  );

  app.get(
    "/api/conversations/unread",
    route({
      summary: "How many messages I have not read (the header's count)",
      action: "conversations.read",
    }),
    async (request) => {
      const list = await mine(await requireActor(auth, db, request));
      return { data: { unread: list.reduce((sum, conversation) => sum + conversation.unread, 0) } };
    },
  );

  app.post(
    "/api/conversations",
    route({
      summary: "Open (or start) a conversation with people of a project",
      body: startConversationSchema,
      action: "conversations.start",
    }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const input = startConversationSchema.parse(request.body);
      const { project, access } = await loadProject(db, actor, input.projectId);
      authorizeConversation(memberActor(actor.user.id, access), "conversations.start", {
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
      if (same) return { data: (await present(actor, [same]))[0] };
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
      reply.status(201);
      return { data: (await present(actor, [row!]))[0] };
    },
  );

  app.get(
    "/api/conversations/people",
    route({
      summary: "The people of a project one may start a conversation with",
      query: conversationPeopleQuerySchema,
      action: "conversations.start",
    }),
    async (request) => {
      const actor = await requireActor(auth, db, request);
      const { projectId } = conversationPeopleQuerySchema.parse(request.query);
      const { project, access } = await loadProject(db, actor, projectId);
      authorizeConversation(memberActor(actor.user.id, access), "conversations.start", {
        isParticipant: false,
      });
      const people = [...(await boardPeople(db, project.id)).values()]
        .filter((person) => person.id !== actor.user.id)
        .map(({ id, displayName, photoURL }): ConversationPerson => ({ uid: id, displayName, photoURL }))
        .sort((a, b) => a.displayName.localeCompare(b.displayName));
      return { data: people };
    },
  );

  app.post(
    "/api/conversations/support",
    route({
      summary: "Open my conversation with this installation's support ('Need help?')",
      action: "self",
    }),
    async (request, reply) => {
      const actor = await requireActor(auth, db, request);
      const existing = async () =>
        (await db.select().from(conversations).where(eq(conversations.supportUserId, actor.user.id)))[0];
      let row = await existing();
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
          reply.status(201);
        });
        row = await existing();
      }
      return { data: (await present(actor, [row!]))[0] };
    },
  );

  app.get(
    "/api/conversations/:conversationId",
    route({ summary: "One conversation of mine", action: "conversations.read" }),
    async (request) => {
      const { actor, conversation } = await load(request, "conversations.read");
      return { data: (await present(actor, [conversation]))[0] };
    },
  );

  app.get(
    "/api/conversations/:conversationId/messages",
    route({
      summary: "A conversation's messages, newest last (page back with `before`)",
      query: messagesQuerySchema,
      action: "conversations.read",
    }),
    async (request) => {
      const { conversation } = await load(request, "conversations.read");
      return listMessages(db, conversation.id, messagesQuerySchema.parse(request.query));
    },
  );

  app.post(
    "/api/conversations/:conversationId/messages",
    route({
      summary: "Send a message (with attachments)",
      body: sendMessageSchema,
      action: "conversations.send",
    }),
    async (request, reply) => {
      const { actor, conversation, participant, policyActor } = await load(request, "conversations.send");
      const input = sendMessageSchema.parse(request.body);
      if (input.attachments.length > 0)
        authorizeConversation(policyActor, "conversations.attach", { isParticipant: true });
      const isAsker = conversation.kind === "support" && conversation.supportUserId === actor.user.id;
      if (isAsker) await joinSupportAccount(conversation);
      const message = await sendMessage(
        db,
        storage,
        conversation,
        participant,
        input as SendMessageInput,
        ctx.config.plansEnabled,
      );
      if (isAsker)
        await mailer.send(
          supportConversationMail({
            to: ctx.config.supportEmail,
            sender: { name: actor.user.displayName || actor.user.email, email: actor.user.email },
            message: input.message,
            attachments: input.attachments.map((attachment) => attachment.name),
          }),
        );
      reply.status(201);
      return { data: message };
    },
  );

  app.post(
    "/api/conversations/:conversationId/read",
    route({ summary: "Mark a conversation read", action: "conversations.read" }),
    async (request) => {
      const { conversation, participant } = await load(request, "conversations.read");
      await markRead(db, conversation.id, participant);
      return { data: { read: true } };
    },
  );

  app.post(
    "/api/conversations/:conversationId/attachments",
    route({ summary: "Upload a message attachment (≤ 5 MB)", upload: true, action: "conversations.attach" }),
    async (request, reply) => {
      const { conversation } = await load(request, "conversations.attach");
      const attachment = await uploadAttachment(
        storage,
        request,
        conversation.id,
        roomInProject(db, conversation.projectId, ctx.config.plansEnabled),
      );
      reply.status(201);
      return { data: attachment };
    },
  );

  app.get(
    "/api/conversations/:conversationId/attachments/:sha",
    route({ summary: "Download a message attachment", action: "conversations.read" }),
    async (request, reply) => {
      const { conversation } = await load(request, "conversations.read");
      return serveAttachment(storage, request, reply, conversation.id);
    },
  );

  /** An account with the support address made after the conversation began joins it now. */
  async function joinSupportAccount(conversation: ConversationRow) {
    const support = await supportAccount(db, ctx.config.supportEmail);
    if (!support || support.id === conversation.supportUserId) return;
    await db
      .insert(conversationParticipants)
      .values(participantOf(conversation.id, support))
      .onConflictDoNothing();
  }
}

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
