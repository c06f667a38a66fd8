/**
 * The messages area's operations, shared by the members' routes and the public link's guest routes:
 * loading a conversation with the reader's place in it, presenting it (SPEC §3 title and preview, unread
 * count, abilities), starting one, sending and reading messages. Each new message is published to the
 * `user:{uid}` room of every participant: an account's own room, or for a guest of the public link the
 * room of its participant id, which only that guest's socket joins (conversations.guest.realtime.ts).
 */
import { createHash } from "node:crypto";
import {
  CONVERSATION_TEXTS,
  type Conversation,
  type ConversationAttachment,
  type ConversationMessage,
  type ConversationParticipant,
  conversationPreview,
  conversationTitle,
  isForbiddenAttachment,
  type SendMessageInput,
  sendMessageSchema,
} from "@redline/shared";
import { and, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import {
  conversationMessages,
  conversationParticipants,
  conversations,
  projects,
  users,
} from "../../db/schema/index.ts";
import { together } from "../../db/together.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { PolicyActor } from "../../lib/policy.ts";
import { publish } from "../../lib/realtime.ts";
import type { Storage } from "../../lib/storage/storage.ts";
import { storedAttachments, writeEntry } from "../discussion/discussion.write.ts";
import { boardPeople } from "../tickets/tickets.load.ts";
import { conversationAbilities } from "./conversations.policy.ts";

export type ConversationRow = typeof conversations.$inferSelect;
export type ParticipantRow = typeof conversationParticipants.$inferSelect;
export type MessageRow = typeof conversationMessages.$inferSelect;
type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Executor = Database | Tx;

/** Whose eyes a conversation is read with: the policy actor and their participant row (if any). */
export interface Reader {
  actor: PolicyActor;
  participant: ParticipantRow | null;
}

export const uidOf = (participant: ParticipantRow) => participant.userId ?? participant.id;
export const hashGuestKey = (key: string) => createHash("sha256").update(key).digest("hex");

export async function participantsOf(db: Executor, conversationIds: string[]): Promise<ParticipantRow[]> {
  if (conversationIds.length === 0) return [];
  return db
    .select()
    .from(conversationParticipants)
    .where(inArray(conversationParticipants.conversationId, conversationIds))
    .orderBy(conversationParticipants.createdAt, conversationParticipants.id);
}

export function presentMessage(row: MessageRow): ConversationMessage {
  return {
    id: row.id,
    conversationId: row.conversationId,
    senderId: row.senderId,
    senderName: row.senderName,
    message: row.message,
    attachments: row.attachments,
    createdAt: row.createdAt.toISOString(),
  };
}

const presentParticipant = (row: ParticipantRow): ConversationParticipant => ({
  uid: uidOf(row),
  displayName: row.displayName,
  photoURL: row.photoURL,
  isAnonymous: row.isAnonymous,
  isGuest: row.isGuest,
});

/** Conversations as each reader sees them, with the latest message and the reader's unread count. */
export async function presentConversations(
  db: Executor,
  rows: ConversationRow[],
  readerOf: (row: ConversationRow, participants: ParticipantRow[]) => Reader,
): Promise<Conversation[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const projectIds = [...new Set(rows.flatMap((row) => (row.projectId ? [row.projectId] : [])))];
  const [participants, latest, titles] = await together(db, [
    () => participantsOf(db, ids),
    () =>
      db
        .selectDistinctOn([conversationMessages.conversationId])
        .from(conversationMessages)
        .where(inArray(conversationMessages.conversationId, ids))
        .orderBy(
          conversationMessages.conversationId,
          desc(conversationMessages.createdAt),
          desc(conversationMessages.id),
        ),
    async () =>
      projectIds.length === 0
        ? []
        : db
            .select({ id: projects.id, title: projects.title })
            .from(projects)
            .where(inArray(projects.id, projectIds)),
  ]);
  const readers = rows.map((row) =>
    readerOf(
      row,
      participants.filter((p) => p.conversationId === row.id),
    ),
  );
  const unread = await unreadCounts(
    db,
    readers.flatMap((reader) => (reader.participant ? [reader.participant] : [])),
  );
  return rows.map((row, index) => {
    const reader = readers[index]!;
    const own = participants.filter((p) => p.conversationId === row.id);
    const last = latest.find((message) => message.conversationId === row.id) ?? null;
    const selfUid = reader.participant ? uidOf(reader.participant) : "";
    const count = reader.participant ? (unread.get(reader.participant.id) ?? 0) : 0;
    const isAsker = row.kind === "support" && row.supportUserId === reader.participant?.userId;
    return {
      id: row.id,
      kind: row.kind,
      projectId: row.projectId,
      projectTitle: titles.find((project) => project.id === row.projectId)?.title ?? null,
      participants: own.map(presentParticipant),
      selfUid,
      title: isAsker ? CONVERSATION_TEXTS.support : conversationTitle(own.map(presentParticipant), selfUid),
      preview: conversationPreview(last),
      message: last?.message ?? null,
      senderId: last?.senderId ?? null,
      attachments: last?.attachments ?? [],
      read: count === 0,
      unread: count,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.lastMessageAt.toISOString(),
      abilities: conversationAbilities(reader.actor, { isParticipant: reader.participant !== null }),
    };
  });
}

/** Unread messages per participant row: from others, after the participant's last-read marker. */
async function unreadCounts(db: Executor, readers: ParticipantRow[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (readers.length === 0) return counts;
  const rows = await db
    .select({ participantId: conversationParticipants.id, unread: sql<number>`count(*)::int` })
    .from(conversationParticipants)
    .innerJoin(
      conversationMessages,
      eq(conversationMessages.conversationId, conversationParticipants.conversationId),
    )
    .where(
      and(
        inArray(
          conversationParticipants.id,
          readers.map((reader) => reader.id),
        ),
        ne(
          conversationMessages.senderId,
          sql`coalesce(${conversationParticipants.userId}, ${conversationParticipants.id})`,
        ),
        or(
          isNull(conversationParticipants.lastReadAt),
          gt(conversationMessages.createdAt, conversationParticipants.lastReadAt),
        ),
      ),
    )
    .groupBy(conversationParticipants.id);
  for (const row of rows) counts.set(row.participantId, Number(row.unread));
  return counts;
}

/** A page of messages, newest last; `before` pages back from the oldest one shown. */
export async function listMessages(
  db: Executor,
  conversationId: string,
  query: { before?: string; limit: number },
): Promise<{ data: ConversationMessage[]; hasMore: boolean }> {
  const rows = await db
    .select()
    .from(conversationMessages)
    .where(
      and(
        eq(conversationMessages.conversationId, conversationId),
        query.before ? lt(conversationMessages.createdAt, new Date(query.before)) : undefined,
      ),
    )
    .orderBy(desc(conversationMessages.createdAt), desc(conversationMessages.id))
    .limit(query.limit + 1);
  return {
    data: rows.slice(0, query.limit).reverse().map(presentMessage),
    hasMore: rows.length > query.limit,
  };
}

/**
 * The project's people with an account, as participant rows of a guest's conversation. Read outside any
 * transaction: `boardPeople` runs its queries side by side, which one transaction's connection cannot.
 */
export async function projectPeopleRows(db: Database, conversationId: string, projectId: string) {
  return [...(await boardPeople(db, projectId)).values()].map((person) => ({
    id: newId(),
    conversationId,
    userId: person.id,
    displayName: person.displayName,
    photoURL: person.photoURL,
  }));
}

/** Adds them (those already in it stay as they are). */
export async function addParticipants(
  into: Executor,
  rows: Awaited<ReturnType<typeof projectPeopleRows>>,
): Promise<void> {
  if (rows.length > 0) await into.insert(conversationParticipants).values(rows).onConflictDoNothing();
}

/** The account behind the installation's support address, if one exists. */
export async function supportAccount(db: Executor, supportEmail: string) {
  const [row] = await db
    .select({ id: users.id, displayName: users.displayName, photoURL: users.photoURL })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${supportEmail.toLowerCase()}`, eq(users.isDeleted, false)));
  return row ?? null;
}

/**
 * The attachments of a new message, as stored: never a forbidden type, each uploaded to this conversation
 * first, its size the stored file's (never the client's word).
 */
export async function storedMessageFiles(
  storage: Storage,
  conversationId: string,
  attachments: ConversationAttachment[],
): Promise<ConversationAttachment[]> {
  if (attachments.some(isForbiddenAttachment))
    throw new BadRequestError(CONVERSATION_TEXTS.forbiddenType, "forbidden-file-type");
  return storedAttachments(
    storage,
    attachments,
    (attachment) => attachment.path === `conversations/${conversationId}/${attachment.id}`,
    { message: "Upload the attachment to this conversation first.", code: "attachment-not-found" },
  );
}

/**
 * Stores a message and tells every participant, in one transaction. Attachments in a project's
 * conversation count against the project owner's storage from the message that holds them (402 past it).
 */
export async function sendMessage(
  db: Database,
  storage: Storage,
  conversation: ConversationRow,
  sender: ParticipantRow,
  body: SendMessageInput,
  plansEnabled: boolean,
): Promise<ConversationMessage> {
  const input = sendMessageSchema.parse(body);
  const attachments = await storedMessageFiles(storage, conversation.id, input.attachments);
  const now = new Date();
  const where = { projectId: conversation.projectId, plansEnabled, carriesFiles: attachments.length > 0 };
  const insert = async (tx: Tx) => {
    const [row] = await tx
      .insert(conversationMessages)
      .values({
        id: newId(),
        conversationId: conversation.id,
        senderId: uidOf(sender),
        senderName: sender.displayName,
        message: input.message,
        attachments,
        createdAt: now,
      })
      .returning();
    return row!;
  };
  return writeEntry(db, where, insert, async (tx, row) => {
    await tx.update(conversations).set({ lastMessageAt: now }).where(eq(conversations.id, conversation.id));
    // What one sends is read by its sender.
    await tx
      .update(conversationParticipants)
      .set({ lastReadAt: now })
      .where(eq(conversationParticipants.id, sender.id));
    const message = presentMessage(row);
    // A long message would pass the channel's limit: the event then says "refetch".
    const carried = JSON.stringify(message).length < 6000 ? message : undefined;
    const recipients = await participantsOf(tx, [conversation.id]);
    for (const participant of recipients) {
      await publish(tx, `user:${uidOf(participant)}`, {
        type: "conversations.message",
        conversationId: conversation.id,
        message: carried,
      });
    }
    return message;
  });
}

export async function markRead(db: Database, conversationId: string, reader: ParticipantRow): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(conversationParticipants)
      .set({ lastReadAt: new Date() })
      .where(eq(conversationParticipants.id, reader.id));
    await publish(tx, `user:${uidOf(reader)}`, { type: "conversations.read", conversationId });
  });
}
