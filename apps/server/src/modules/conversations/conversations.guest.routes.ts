/**
 * Messages through the public link over HTTP: a link guest (lib/principal.ts `linkGuestOf`) reads their
 * conversation, its messages and attachments here; opening it, sending and marking read are operations
 * (conversations.guest.operations.ts). New messages and reads reach the guest's realtime socket
 * (conversations.guest.realtime.ts).
 */
import {
  conversationAttachmentSchema,
  conversationMessageSchema,
  conversationMessagesPageSchema,
  conversationReadSchema,
  conversationSchema,
  dataAnswer,
  messagesQuerySchema,
  sendMessageSchema,
} from "@redline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context.ts";
import { requestInput } from "../../lib/operations.ts";
import { linkGuestOf } from "../../lib/principal.ts";
import { route } from "../../lib/routes.ts";
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
import type { ConversationAction } from "./conversations.policy.ts";
import { listMessages } from "./conversations.service.ts";

const BASE = "/api/share/:projectId/conversation";

export async function conversationsGuestRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { storage } = ctx;
  const { db } = ctx.database;
  const plansEnabled = ctx.config.plansEnabled;

  /** The guest's conversation of the route, authorized for this action. */
  const load = (request: FastifyRequest, action: ConversationAction) =>
    loadGuestConversation(
      db,
      plansEnabled,
      linkGuestOf(request),
      guestProjectParams.parse(request.params).projectId,
      action,
    );

  app.get(
    BASE,
    route({
      summary: "The guest's conversation with the project's people (null: none yet)",
      action: "public",
      response: dataAnswer(conversationSchema.nullable()),
    }),
    async (request) => {
      const { projectId } = guestProjectParams.parse(request.params);
      const { project, actor, keyHash } = await linkGuestIn(
        db,
        plansEnabled,
        linkGuestOf(request),
        projectId,
      );
      const conversation = await findGuestConversation(db, project.id, keyHash);
      return { data: conversation ? await presentGuestConversation(db, actor, conversation) : null };
    },
  );

  app.post(
    BASE,
    route({
      summary: "Open (or start) the guest's conversation with the project's people",
      action: "public",
      response: dataAnswer(conversationSchema),
    }),
    async (request, reply) => {
      const { created, data } = await openGuestConversation(ctx, linkGuestOf(request), requestInput(request));
      if (created) reply.status(201);
      return { data };
    },
  );

  app.get(
    `${BASE}/messages`,
    route({
      summary: "The guest's messages, newest last",
      query: messagesQuerySchema,
      action: "public",
      response: conversationMessagesPageSchema,
    }),
    async (request) => {
      const { conversation } = await load(request, "conversations.read");
      return listMessages(db, conversation.id, messagesQuerySchema.parse(request.query));
    },
  );

  app.post(
    `${BASE}/messages`,
    route({
      summary: "Send a message as the guest",
      body: sendMessageSchema,
      action: "public",
      response: dataAnswer(conversationMessageSchema),
    }),
    async (request, reply) => {
      const sent = await sendGuestMessage(ctx, linkGuestOf(request), requestInput(request));
      reply.status(201);
      return sent;
    },
  );

  app.post(
    `${BASE}/read`,
    route({
      summary: "Mark the guest's conversation read",
      action: "public",
      response: dataAnswer(conversationReadSchema),
    }),
    async (request) => markGuestConversationRead(ctx, linkGuestOf(request), requestInput(request)),
  );

  app.post(
    `${BASE}/attachments`,
    route({
      summary: "Upload an attachment as the guest (≤ 5 MB)",
      upload: true,
      action: "public",
      response: dataAnswer(conversationAttachmentSchema),
    }),
    async (request, reply) => {
      const { project, conversation } = await load(request, "conversations.attach");
      const attachment = await uploadAttachment(
        storage,
        request,
        conversation.id,
        roomInProject(db, project.id, plansEnabled),
      );
      reply.status(201);
      return { data: attachment };
    },
  );

  app.get(
    `${BASE}/attachments/:sha`,
    route({
      summary: "Download an attachment of the guest's conversation",
      action: "public",
      response: "not-json",
    }),
    async (request, reply) => {
      const { conversation } = await load(request, "conversations.read");
      return serveAttachment(storage, request, reply, conversation.id);
    },
  );
}
