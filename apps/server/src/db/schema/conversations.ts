import type { ConversationAttachment, ConversationKind } from "@redline/shared";
import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { projects } from "./projects.ts";
import { users } from "./users.ts";

/**
 * The messages area (SPEC §3 Conversation). A project conversation is among the project's people, or
 * between a guest of its public link (found by the hash of the key its browser keeps) and the project's
 * people; a support conversation has no project: one per user, with the installation's support address.
 */
export const conversations = pgTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    kind: text("kind").$type<ConversationKind>().notNull(),
    projectId: text("project_id").references(() => projects.id, { onDelete: "cascade" }),
    /** A guest's conversation: sha-256 of the guest's key (never the key itself). */
    guestKeyHash: text("guest_key_hash"),
    /** A support conversation: the user who asks. */
    supportUserId: text("support_user_id").references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("conversations_project_idx").on(table.projectId),
    uniqueIndex("conversations_guest_idx")
      .on(table.projectId, table.guestKeyHash)
      .where(sql`${table.guestKeyHash} is not null`),
    uniqueIndex("conversations_support_idx")
      .on(table.supportUserId)
      .where(sql`${table.supportUserId} is not null`),
  ],
);

/** Who takes part, as they were named when they joined, and how far each has read. */
export const conversationParticipants = pgTable(
  "conversation_participants",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** An account; null for a guest of the link. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    displayName: text("display_name").notNull(),
    photoURL: text("photo_url"),
    isGuest: boolean("is_guest").notNull().default(false),
    isAnonymous: boolean("is_anonymous").notNull().default(false),
    /** Messages after this are unread for the participant (null: none read yet). */
    lastReadAt: timestamp("last_read_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("conversation_participants_user_idx")
      .on(table.conversationId, table.userId)
      .where(sql`${table.userId} is not null`),
    index("conversation_participants_by_user_idx").on(table.userId),
  ],
);

export const conversationMessages = pgTable(
  "conversation_messages",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** The sending participant's uid: its account, or for a guest the participant row's id. */
    senderId: text("sender_id").notNull(),
    senderName: text("sender_name").notNull(),
    message: text("message").notNull().default(""),
    attachments: jsonb("attachments").$type<ConversationAttachment[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("conversation_messages_conversation_idx").on(table.conversationId, table.createdAt)],
);
