/**
 * Conversations, the messages area (SPEC §2 messages icon, 'Need help?'; §3 Conversation): per-project
 * conversations between the project's people and guests of its public link, and one support conversation
 * per user with the installation's support address. The contracts both sides use, and the pure title and
 * preview rules (texts verbatim from the SPEC, grammar included).
 */
import { z } from "zod";
import { MAX_UPLOAD_BYTES } from "./constants.ts";

export const CONVERSATION_TEXTS = {
  guestMessages: "Guest Messages",
  anonymousUser: "Anonymous User",
  sentAttachment: "Sent an attachment",
  beginning: "This is the very beginning your conversations.",
  support: "Support",
  forbiddenType: "This type of file cannot be sent.",
} as const;

/** A guest's browser keeps a random key and sends it with each call: it, not the name, finds its conversation. */
export const GUEST_KEY_HEADER = "x-redline-guest-key";
export const guestKeySchema = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/);

export const MAX_CONVERSATION_MESSAGE = 4000;
export const MAX_MESSAGE_ATTACHMENTS = 5;
export const CONVERSATION_PAGE_SIZE = 50;

export const CONVERSATION_KINDS = ["project", "support"] as const;
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];

export const conversationParticipantSchema = z.strictObject({
  /** The account's id, or for a guest of the link the participant's own id. */
  uid: z.string(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
  isAnonymous: z.boolean(),
  isGuest: z.boolean(),
});
export type ConversationParticipant = z.infer<typeof conversationParticipantSchema>;

export const conversationAttachmentSchema = z
  .object({
    /** The stored file's content hash. */
    id: z.string().regex(/^[0-9a-f]{64}$/),
    path: z.string().regex(/^conversations\/[A-Za-z0-9_-]+\/[0-9a-f]{64}$/),
    name: z.string().min(1).max(200),
    size: z.number().int().min(0).max(MAX_UPLOAD_BYTES),
    type: z.string().max(200),
  })
  .strict();
export type ConversationAttachment = z.infer<typeof conversationAttachmentSchema>;

export const conversationMessageSchema = z.strictObject({
  id: z.string(),
  conversationId: z.string(),
  /** The sending participant's uid. */
  senderId: z.string(),
  senderName: z.string(),
  message: z.string(),
  attachments: z.array(conversationAttachmentSchema),
  createdAt: z.iso.datetime(),
});
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;

export const conversationAbilitiesSchema = z.strictObject({ send: z.boolean(), attach: z.boolean() });
export type ConversationAbilities = z.infer<typeof conversationAbilitiesSchema>;

export const conversationSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(CONVERSATION_KINDS),
  projectId: z.string().nullable(),
  projectTitle: z.string().nullable(),
  participants: z.array(conversationParticipantSchema),
  /** The reader's own uid among the participants. */
  selfUid: z.string(),
  title: z.string(),
  preview: z.string(),
  /** The latest message, as SPEC §3 lists it on the conversation. */
  message: z.string().nullable(),
  senderId: z.string().nullable(),
  attachments: z.array(conversationAttachmentSchema),
  /** False while the reader has messages from others they have not read. */
  read: z.boolean(),
  unread: z.number().int().min(0),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  abilities: conversationAbilitiesSchema,
});
export type Conversation = z.infer<typeof conversationSchema>;

export const conversationMessagesPageSchema = z.strictObject({
  data: z.array(conversationMessageSchema),
  /** Older messages exist: ask again with `before` = the oldest one's createdAt. */
  hasMore: z.boolean(),
});
export type ConversationMessagesPage = z.infer<typeof conversationMessagesPageSchema>;

/** POST …/read: the conversation is read up to now. */
export const conversationReadSchema = z.strictObject({ read: z.literal(true) });

export const startConversationSchema = z
  .object({
    projectId: z.string().min(1).max(64),
    /** Other people of the project (accounts) to talk with; the caller takes part anyway. */
    participantIds: z.array(z.string().min(1).max(64)).min(1).max(20),
  })
  .strict();
export type StartConversationInput = z.infer<typeof startConversationSchema>;

export const conversationPeopleQuerySchema = z.object({ projectId: z.string().min(1).max(64) }).strict();

/** Someone of a project one may start a conversation with. */
export const conversationPersonSchema = z.strictObject({
  uid: z.string(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
});
export type ConversationPerson = z.infer<typeof conversationPersonSchema>;

export const sendMessageSchema = z
  .object({
    message: z.string().trim().max(MAX_CONVERSATION_MESSAGE).default(""),
    attachments: z.array(conversationAttachmentSchema).max(MAX_MESSAGE_ATTACHMENTS).default([]),
  })
  .strict()
  .refine((input) => input.message.length > 0 || input.attachments.length > 0, {
    message: "Write a message or attach a file.",
    path: ["message"],
  });
export type SendMessageInput = z.input<typeof sendMessageSchema>;

export const messagesQuerySchema = z
  .object({
    before: z.string().datetime().optional(),
    limit: z.coerce.number().int().min(1).max(CONVERSATION_PAGE_SIZE).default(CONVERSATION_PAGE_SIZE),
  })
  .strict();

/** Files that run or render as code when opened: never sent through the messages area. */
const FORBIDDEN_EXTENSIONS = new Set([
  "exe",
  "msi",
  "bat",
  "cmd",
  "com",
  "scr",
  "pif",
  "dll",
  "sys",
  "ps1",
  "psm1",
  "vbs",
  "vbe",
  "js",
  "mjs",
  "jse",
  "wsf",
  "wsh",
  "hta",
  "jar",
  "apk",
  "app",
  "dmg",
  "sh",
  "bash",
  "html",
  "htm",
  "xhtml",
  "svg",
  "php",
]);
const FORBIDDEN_TYPES = [
  /^application\/(x-)?(msdownload|ms-installer|x-msi|dosexec|executable|x-sh|javascript|java-archive|vnd\.android\.package-archive|xhtml\+xml|x-httpd-php)$/,
  /^text\/(html|javascript|x-shellscript)$/,
  /^image\/svg\+xml$/,
];

export function isForbiddenAttachment(file: { name: string; type: string }): boolean {
  const extension = file.name.includes(".") ? file.name.split(".").pop()!.toLowerCase() : "";
  if (FORBIDDEN_EXTENSIONS.has(extension)) return true;
  const type = file.type.toLowerCase().split(";")[0]!.trim();
  return FORBIDDEN_TYPES.some((pattern) => pattern.test(type));
}

const firstName = (participant: ConversationParticipant) =>
  participant.displayName.trim().split(/\s+/)[0] || participant.displayName;

/**
 * SPEC §3 title, as `selfUid` reads it: a guest of the link shows its name ('Guest Messages' without
 * one; 'Anonymous User' for the anonymous visitor); one other person shows their full name; two show
 * their first names sorted '& You'; more the first two of the sorted first names '& N other(s)'.
 */
export function conversationTitle(participants: ConversationParticipant[], selfUid: string): string {
  const others = participants.filter((participant) => participant.uid !== selfUid);
  const guest = others.find((participant) => participant.isGuest || participant.isAnonymous);
  if (guest) {
    if (guest.isAnonymous) return CONVERSATION_TEXTS.anonymousUser;
    return guest.displayName.trim() || CONVERSATION_TEXTS.guestMessages;
  }
  if (others.length === 0) return participants[0]?.displayName ?? "";
  if (others.length === 1) return others[0]!.displayName;
  // Sorted by first name (then full name, then id) so the title never depends on storage order,
  // which changes between loads.
  const names = [...others]
    .sort(
      (a, b) =>
        firstName(a).localeCompare(firstName(b)) ||
        a.displayName.localeCompare(b.displayName) ||
        (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0),
    )
    .map(firstName);
  if (others.length === 2) return `${names.join(", ")} & You`;
  const rest = others.length - 2;
  return `${names.slice(0, 2).join(", ")} & ${rest} ${rest === 1 ? "other" : "others"}`;
}

/** SPEC §3 preview: the latest message, 'Sent an attachment' when it is only files, or the beginning text. */
export function conversationPreview(
  latest: { message: string | null; attachments: readonly unknown[] } | null,
): string {
  if (latest?.message?.trim()) return latest.message;
  if (latest && latest.attachments.length > 0) return CONVERSATION_TEXTS.sentAttachment;
  return CONVERSATION_TEXTS.beginning;
}
