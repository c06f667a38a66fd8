/**
 * The messages area for signed-in people over HTTP: their conversations (with unread counts and the SPEC
 * §3 title and preview), messages (paged), attachments, and the header's unread total. Starting one,
 * 'Need help?', sending and marking read are operations (conversations.operations.ts).
 */
import {
  type ConversationPerson,
  conversationAttachmentSchema,
  conversationMessageSchema,
  conversationMessagesPageSchema,
  conversationPeopleQuerySchema,
  conversationPersonSchema,
  conversationReadSchema,
  conversationSchema,
  dataAnswer,
  messagesQuerySchema,
  sendMessageSchema,
  startConversationSchema,
} from "@redline/shared";
import { desc, eq, inArray } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { conversationParticipants, conversations } from "../../db/schema/index.ts";
import { requestInput } from "../../lib/operations.ts";
import { memberActor } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { type Actor, requireActor } from "../auth/session.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { boardPeople } from "../tickets/tickets.load.ts";
import { conversationParams, loadConversation, presentConversationsFor } from "./conversations.access.ts";
import { roomInProject, serveAttachment, uploadAttachment } from "./conversations.files.ts";
import {
  markConversationRead,
  openSupportConversation,
  sendConversationMessage,
  startConversation,
} from "./conversations.operations.ts";
import { authorizeConversation, type ConversationAction } from "./conversations.policy.ts";
import { listMessages } from "./conversations.service.ts";

const MAX_LISTED = 100;

/** A conversation opened: 201 when it was made just now, 200 when it existed. */
function opened<T>(reply: FastifyReply, { created, data }: { created: boolean; data: T }) {
  if (created) reply.status(201);
  return { data };
}

export async function conversationsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { storage } = ctx;
  const { db } = ctx.database;

  /** The conversation of the route, authorized for this action. */
  async function load(request: FastifyRequest, action: ConversationAction) {
    const actor = await requireActor(request);
    const { conversationId } = conversationParams.parse(request.params);
    return { actor, ...(await loadConversation(db, actor, conversationId, action)) };
  }

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
    return presentConversationsFor(db, actor, rows);
  };

  app.get(
    "/api/conversations",
    route({
      summary: "My conversations, newest first, with unread counts",
      action: "conversations.read",
      response: dataAnswer(z.array(conversationSchema)),
    }),
    async (request) => ({ data: await mine(await requireActor(request)) }),
  );

  app.get(
    "/api/conversations/unread",
    route({
      summary: "How many messages I have not read (the header's count)",
      action: "conversations.read",
      response: dataAnswer(z.strictObject({ unread: z.number().int().min(0) })),
    }),
    async (request) => {
      const list = await mine(await requireActor(request));
      return { data: { unread: list.reduce((sum, conversation) => sum + conversation.unread, 0) } };
    },
  );

  app.post(
    "/api/conversations",
    route({
      summary: "Open (or start) a conversation with people of a project",
      body: startConversationSchema,
      action: "conversations.start",
      response: dataAnswer(conversationSchema),
    }),
    async (request, reply) =>
      opened(reply, await startConversation(ctx, await requireActor(request), requestInput(request))),
  );

  app.get(
    "/api/conversations/people",
    route({
      summary: "The people of a project one may start a conversation with",
      query: conversationPeopleQuerySchema,
      action: "conversations.start",
      response: dataAnswer(z.array(conversationPersonSchema)),
    }),
    async (request) => {
      const actor = await requireActor(request);
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
      response: dataAnswer(conversationSchema),
    }),
    async (request, reply) =>
      opened(reply, await openSupportConversation(ctx, await requireActor(request), requestInput(request))),
  );

  app.get(
    "/api/conversations/:conversationId",
    route({
      summary: "One conversation of mine",
      action: "conversations.read",
      response: dataAnswer(conversationSchema),
    }),
    async (request) => {
      const { actor, conversation } = await load(request, "conversations.read");
      return { data: (await presentConversationsFor(db, actor, [conversation]))[0] };
    },
  );

  app.get(
    "/api/conversations/:conversationId/messages",
    route({
      summary: "A conversation's messages, newest last (page back with `before`)",
      query: messagesQuerySchema,
      action: "conversations.read",
      response: conversationMessagesPageSchema,
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
      response: dataAnswer(conversationMessageSchema),
    }),
    async (request, reply) => {
      const sent = await sendConversationMessage(ctx, await requireActor(request), requestInput(request));
      reply.status(201);
      return sent;
    },
  );

  app.post(
    "/api/conversations/:conversationId/read",
    route({
      summary: "Mark a conversation read",
      action: "conversations.read",
      response: dataAnswer(conversationReadSchema),
    }),
    async (request) => markConversationRead(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    "/api/conversations/:conversationId/attachments",
    route({
      summary: "Upload a message attachment (≤ 5 MB)",
      upload: true,
      action: "conversations.attach",
      response: dataAnswer(conversationAttachmentSchema),
    }),
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
    route({
      summary: "Download a message attachment",
      action: "conversations.read",
      response: "not-json",
    }),
    async (request, reply) => {
      const { conversation } = await load(request, "conversations.read");
      return serveAttachment(storage, request, reply, conversation.id);
    },
  );
}
