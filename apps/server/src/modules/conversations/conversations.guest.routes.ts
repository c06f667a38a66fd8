/**
 * Messages through the public link: a guest (no account) talks with the project's people while the link
 * is on. The guest's browser keeps a random key (`x-redline-guest-key`); its hash finds the guest's one
 * conversation per project, so knowing a guest's name is not enough to read it. The name shown is the
 * comment identity (`x-redline-guest`, SPEC §3; `public` is 'Anonymous User'). New messages and reads
 * reach the guest's realtime socket (conversations.guest.realtime.ts).
 */
import {
  GUEST_KEY_HEADER,
  guestKeySchema,
  messagesQuerySchema,
  PUBLIC_GUEST,
  parseGuestIdentity,
  SHARING_MESSAGES,
  sendMessageSchema,
} from "@redline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { conversationParticipants, conversations } from "../../db/schema/index.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { PolicyActor } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { GUEST_HEADER } from "../comments/comments.guest.routes.ts";
import { roomInProject, serveAttachment, uploadAttachment } from "./conversations.files.ts";
import { findGuestConversation, guestOfProject, guestParticipantOf } from "./conversations.guest.load.ts";
import { authorizeConversation, type ConversationAction } from "./conversations.policy.ts";
import {
  addParticipants,
  type ConversationRow,
  hashGuestKey,
  listMessages,
  markRead,
  presentConversations,
  projectPeopleRows,
  sendMessage,
} from "./conversations.service.ts";

const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const BASE = "/api/share/:projectId/conversation";

export async function conversationsGuestRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { storage } = ctx;
  const { db } = ctx.database;

  /** The project, while its public link is on, and the guest as the policy sees them. */
  async function guestOf(request: FastifyRequest) {
    const { projectId } = projectParams.parse(request.params);
    const guest = await guestOfProject(db, ctx.config.plansEnabled, projectId);
    if (!guest) throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
    const key = guestKeySchema.safeParse(request.headers[GUEST_KEY_HEADER]);
    if (!key.success)
      throw new BadRequestError("Your browser did not send its guest key: reload the page.", "guest-key");
    return { ...guest, keyHash: hashGuestKey(key.data) };
  }

  const findConversation = (projectId: string, keyHash: string) =>
    findGuestConversation(db, projectId, keyHash);

  /** The guest's conversation, authorized for this action (404 when they have none). */
  async function load(request: FastifyRequest, action: ConversationAction) {
    const { project, actor, keyHash } = await guestOf(request);
    const conversation = await findConversation(project.id, keyHash);
    const participant = conversation ? await guestParticipantOf(db, conversation.id) : null;
    authorizeConversation(actor, action, { isParticipant: participant !== null });
    return { project, actor, conversation: conversation!, participant: participant! };
  }

  const present = async (actor: PolicyActor, row: ConversationRow) =>
    (
      await presentConversations(db, [row], (_row, participants) => ({
        actor,
        participant: participants.find((p) => p.isGuest) ?? null,
      }))
    )[0]!;

  app.get(
    BASE,
    route({
      summary: "The guest's conversation with the project's people (null: none yet)",
      action: "public",
    }),
    async (request) => {
      const { project, actor, keyHash } = await guestOf(request);
      const conversation = await findConversation(project.id, keyHash);
      return { data: conversation ? await present(actor, conversation) : null };
    },
  );

  app.post(
    BASE,
    route({
      summary: "Open (or start) the guest's conversation with the project's people",
      action: "public",
    }),
    async (request, reply) => {
      const { project, actor, keyHash } = await guestOf(request);
      authorizeConversation(actor, "conversations.start", { isParticipant: false });
      const raw = request.headers[GUEST_HEADER];
      const identity = parseGuestIdentity(typeof raw === "string" ? raw : undefined);
      if (!identity)
        throw new BadRequestError("Tell us your name before sending a message.", "guest-identity");
      let conversation = await findConversation(project.id, keyHash);
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
            isAnonymous: raw === PUBLIC_GUEST,
          });
          await addParticipants(tx, people);
          reply.status(201);
        });
        conversation = await findConversation(project.id, keyHash);
      }
      return { data: await present(actor, conversation!) };
    },
  );

  app.get(
    `${BASE}/messages`,
    route({ summary: "The guest's messages, newest last", query: messagesQuerySchema, action: "public" }),
    async (request) => {
      const { conversation } = await load(request, "conversations.read");
      return listMessages(db, conversation.id, messagesQuerySchema.parse(request.query));
    },
  );

  app.post(
    `${BASE}/messages`,
    route({ summary: "Send a message as the guest", body: sendMessageSchema, action: "public" }),
    async (request, reply) => {
      const { project, actor, conversation, participant } = await load(request, "conversations.send");
      const input = sendMessageSchema.parse(request.body);
      if (input.attachments.length > 0)
        authorizeConversation(actor, "conversations.attach", { isParticipant: true });
      // People who joined the project since the conversation began take part too.
      await addParticipants(db, await projectPeopleRows(db, conversation.id, project.id));
      const message = await sendMessage(
        db,
        storage,
        conversation,
        participant,
        input,
        ctx.config.plansEnabled,
      );
      reply.status(201);
      return { data: message };
    },
  );

  app.post(
    `${BASE}/read`,
    route({ summary: "Mark the guest's conversation read", action: "public" }),
    async (request) => {
      const { conversation, participant } = await load(request, "conversations.read");
      await markRead(db, conversation.id, participant);
      return { data: { read: true } };
    },
  );

  app.post(
    `${BASE}/attachments`,
    route({ summary: "Upload an attachment as the guest (≤ 5 MB)", upload: true, action: "public" }),
    async (request, reply) => {
      const { project, conversation } = await load(request, "conversations.attach");
      const attachment = await uploadAttachment(
        storage,
        request,
        conversation.id,
        roomInProject(db, project.id, ctx.config.plansEnabled),
      );
      reply.status(201);
      return { data: attachment };
    },
  );

  app.get(
    `${BASE}/attachments/:sha`,
    route({ summary: "Download an attachment of the guest's conversation", action: "public" }),
    async (request, reply) => {
      const { conversation } = await load(request, "conversations.read");
      return serveAttachment(storage, request, reply, conversation.id);
    },
  );
}
