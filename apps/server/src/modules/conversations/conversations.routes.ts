/**
 * The messages area over HTTP: signed-in people's conversations (with unread counts and the SPEC §3 title
 * and preview), messages (paged), attachments, and the header's unread total; starting one, 'Need help?',
 * sending and marking read are operations (conversations.operations.ts). Through a project's public link
 * (`/api/share/:projectId/conversation`, lib/principal.ts `THROUGH_THE_LINK`) the link's guest has their
 * one conversation with the project's people: the same messages and attachments handlers, the guest's
 * conversation found by their key (conversations.guest.operations.ts; new messages and reads reach the
 * guest's socket, conversations.guest.realtime.ts).
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
import { policyActorOf } from "../../lib/policy.ts";
import { THROUGH_THE_LINK, throughLink } from "../../lib/principal.ts";
import { route } from "../../lib/routes.ts";
import { type Actor, requireActor } from "../auth/session.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { boardPeople } from "../tickets/tickets.load.ts";
import { conversationParams, loadConversation, presentConversationsFor } from "./conversations.access.ts";
import { roomInProject, serveAttachment, uploadAttachment } from "./conversations.files.ts";
import { findGuestConversation } from "./conversations.guest.load.ts";
import {
  guestProjectParams,
  linkGuestIn,
  loadGuestConversation,
  markGuestConversationRead,
  openGuestConversation,
  presentGuestConversation,
  sendGuestMessage,
} from "./conversations.guest.operations.ts";
import {
  markConversationRead,
  openSupportConversation,
  sendConversationMessage,
  startConversation,
} from "./conversations.operations.ts";
import { authorizeConversation, type ConversationAction } from "./conversations.policy.ts";
import { listMessages } from "./conversations.service.ts";

const MAX_LISTED = 100;
/** The link guest's conversation with the project's people. */
const THROUGH_LINK = "/api/share/:projectId/conversation";

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
  /** The same through the public link: the caller's own conversation as the link's guest. */
  const loadThroughLink = (request: FastifyRequest, action: ConversationAction) =>
    loadGuestConversation(
      db,
      ctx.config.plansEnabled,
      throughLink(request),
      guestProjectParams.parse(request.params).projectId,
      action,
    );
  /** Either, by the route: a member's conversation by its id, else the link guest's. */
  const conversationOf = (request: FastifyRequest, action: ConversationAction) =>
    "conversationId" in (request.params as object) ? load(request, action) : loadThroughLink(request, action);

  // The handlers the members' and the link guest's routes share.
  const readMessages = async (request: FastifyRequest) => {
    const { conversation } = await conversationOf(request, "conversations.read");
    return listMessages(db, conversation.id, messagesQuerySchema.parse(request.query));
  };
  const attach = async (request: FastifyRequest, reply: FastifyReply) => {
    const { conversation } = await conversationOf(request, "conversations.attach");
    const attachment = await uploadAttachment(
      storage,
      request,
      conversation.id,
      roomInProject(db, conversation.projectId, ctx.config.plansEnabled),
    );
    reply.status(201);
    return { data: attachment };
  };
  const download = async (request: FastifyRequest, reply: FastifyReply) => {
    const { conversation } = await conversationOf(request, "conversations.read");
    return serveAttachment(storage, request, reply, conversation.id);
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
      authorizeConversation(policyActorOf(actor, access), "conversations.start", {
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
    readMessages,
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
    attach,
  );

  app.get(
    "/api/conversations/:conversationId/attachments/:sha",
    route({
      summary: "Download a message attachment",
      action: "conversations.read",
      response: "not-json",
    }),
    download,
  );

  // Through the project's public link: its guest's one conversation (anyone holding the link, as its guest).
  app.get(
    THROUGH_LINK,
    route({
      summary: "The guest's conversation with the project's people (null: none yet)",
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(conversationSchema.nullable()),
    }),
    async (request) => {
      const { projectId } = guestProjectParams.parse(request.params);
      const { project, actor, keyHash } = await linkGuestIn(
        db,
        ctx.config.plansEnabled,
        throughLink(request),
        projectId,
      );
      const conversation = await findGuestConversation(db, project.id, keyHash);
      return { data: conversation ? await presentGuestConversation(db, actor, conversation) : null };
    },
  );

  app.post(
    THROUGH_LINK,
    route({
      summary: "Open (or start) the guest's conversation with the project's people",
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(conversationSchema),
    }),
    async (request, reply) =>
      opened(reply, await openGuestConversation(ctx, throughLink(request), requestInput(request))),
  );

  app.get(
    `${THROUGH_LINK}/messages`,
    route({
      summary: "The guest's messages, newest last",
      query: messagesQuerySchema,
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: conversationMessagesPageSchema,
    }),
    readMessages,
  );

  app.post(
    `${THROUGH_LINK}/messages`,
    route({
      summary: "Send a message as the guest",
      body: sendMessageSchema,
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(conversationMessageSchema),
    }),
    async (request, reply) => {
      const sent = await sendGuestMessage(ctx, throughLink(request), requestInput(request));
      reply.status(201);
      return sent;
    },
  );

  app.post(
    `${THROUGH_LINK}/read`,
    route({
      summary: "Mark the guest's conversation read",
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(conversationReadSchema),
    }),
    async (request) => markGuestConversationRead(ctx, throughLink(request), requestInput(request)),
  );

  app.post(
    `${THROUGH_LINK}/attachments`,
    route({
      summary: "Upload an attachment as the guest (≤ 5 MB)",
      upload: true,
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: dataAnswer(conversationAttachmentSchema),
    }),
    attach,
  );

  app.get(
    `${THROUGH_LINK}/attachments/:sha`,
    route({
      summary: "Download an attachment of the guest's conversation",
      action: "public",
      accepts: THROUGH_THE_LINK,
      response: "not-json",
    }),
    download,
  );
}
