import { z } from "zod";
import { MAX_UPLOAD_BYTES } from "./constants.ts";
import { type FrameAnchor, frameAnchorSchema } from "./frame-messages.ts";
import { targetSchema } from "./targets.ts";
import { entryVideoSchema, videoInputSchema } from "./video.ts";

/** Mentions are written as `{@uid}` in a comment's text (SPEC §5). */
export const MENTION_PATTERN = /\{@([A-Za-z0-9_-]{1,64})\}/g;

export function extractMentions(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION_PATTERN)].map((match) => match[1]!))];
}

/** Below 741 px a comment or edit belongs to the mobile layout (SPEC §9 edits breakpoint 741/740). */
export const MOBILE_DEVICE_MAX_WIDTH = 740;
export const DEVICE_SIZES = ["default", "mobile"] as const;
export type DeviceSize = (typeof DEVICE_SIZES)[number];
export function deviceSizeOf(width: number): DeviceSize {
  return width <= MOBILE_DEVICE_MAX_WIDTH ? "mobile" : "default";
}

export const MAX_COMMENT_LENGTH = 5000;
export const MAX_ATTACHMENTS = 5;

/**
 * The element anchor from packages/anchoring, stored as the client sends it: one schema with the frame
 * protocol's. The server checks its shape and size, never its meaning — anchoring runs in the browser.
 */
export const anchorSchema = frameAnchorSchema;
export type AnchorData = FrameAnchor;

const fraction = z.number().min(0).max(1);

export const attachmentSchema = z
  .object({
    name: z.string().min(1).max(200),
    size: z.number().int().min(0).max(MAX_UPLOAD_BYTES),
    type: z.string().max(200),
    path: z.string().regex(/^attachments\/[A-Za-z0-9_-]+\/[0-9a-f]{64}$/),
  })
  .strict();
export type Attachment = z.infer<typeof attachmentSchema>;

const body = z.string().trim().min(1).max(MAX_COMMENT_LENGTH);

export const createCommentSchema = z
  .object({
    /**
     * Where the comment points (targets.ts), of the kind the version shows (else 400, nothing stored).
     * Send it, or the legacy fields below — not both.
     */
    target: targetSchema.optional(),
    /** Web pages: the element and the click point inside it. */
    anchor: z.optional(anchorSchema),
    /** Where the pin sits: a fraction of the element's box (web) or of the image / PDF page. */
    dotPosition: z.object({ x: fraction, y: fraction }).optional(),
    /** PDF pages are numbered from 1. */
    pdfPage: z.number().int().min(1).max(10_000).optional(),
    deviceWidth: z.number().int().min(100).max(10_000),
    comment: body,
    attachments: z.array(attachmentSchema).max(MAX_ATTACHMENTS).default([]),
    /** A recorded video (video.ts): its finished upload, measured and processed by the server. */
    video: videoInputSchema.optional(),
  })
  .strict();

/** What a client sends to create a comment (before defaults). */
export type CreateCommentInput = z.input<typeof createCommentSchema>;

export const replySchema = z
  .object({
    comment: body,
    attachments: z.array(attachmentSchema).max(MAX_ATTACHMENTS).default([]),
    video: videoInputSchema.optional(),
  })
  .strict();
export const editEntrySchema = z.object({ comment: body }).strict();
export const ANCHOR_STATUSES = ["exact", "fuzzy", "needs-review", "orphaned"] as const;
export type AnchorStatus = (typeof ANCHOR_STATUSES)[number];

export const updateCommentSchema = z
  .object({
    isResolved: z.boolean(),
    /** The whole new target, of the kind the comment's content shows; or move it with the fields below. */
    target: targetSchema,
    dotPosition: z.object({ x: fraction, y: fraction }),
    anchor: anchorSchema,
    anchorStatus: z.enum(ANCHOR_STATUSES),
  })
  .partial()
  .strict();

// --- What the API answers (response schemas, issue #28) ------------------------------------------------

export const commentAuthorSchema = z.strictObject({
  uid: z.string().nullable(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
  isGuest: z.boolean(),
});
export type CommentAuthor = z.infer<typeof commentAuthorSchema>;

/** What the reader may do with one entry of a thread, computed by the server's comments policy. */
export const entryAbilitiesSchema = z.strictObject({ edit: z.boolean(), delete: z.boolean() });
export type EntryAbilities = z.infer<typeof entryAbilitiesSchema>;

/** What the reader may do with a comment, computed by the server's comments policy. */
export const commentAbilitiesSchema = z.strictObject({
  reply: z.boolean(),
  /** Attach files to a reply (members; guests write text only). */
  attach: z.boolean(),
  resolve: z.boolean(),
  /** Move the pin, keep a re-anchored position or record how it anchored. */
  move: z.boolean(),
});
export type CommentAbilities = z.infer<typeof commentAbilitiesSchema>;

/**
 * One entry of a thread (a comment's or a ticket's). SPEC §3: an entry may carry a recorded video; its URL
 * and poster once processed (`videoStatus` "ready").
 */
export const threadEntrySchema = z.strictObject({
  id: z.string(),
  createdAt: z.iso.datetime(),
  editedAt: z.iso.datetime().nullable(),
  userId: z.string().nullable(),
  author: commentAuthorSchema,
  comment: z.string(),
  attachments: z.array(attachmentSchema),
  ...entryVideoSchema.shape,
  abilities: entryAbilitiesSchema,
});
export type CommentEntry = z.infer<typeof threadEntrySchema>;

const point = z.strictObject({ x: z.number(), y: z.number() });

export const commentSchema = z.strictObject({
  id: z.string(),
  projectId: z.string(),
  /** A page's comment: its page and version (null on a slide's comment). */
  pageId: z.string().nullable(),
  versionId: z.string().nullable(),
  /** An illustration project's comment: its slide, and the object it is pinned to (null on a page's). */
  slideId: z.string().nullable(),
  objectId: z.string().nullable(),
  /** Where it points (targets.ts); the fields below up to `pdfPage` say the same in the older shape. */
  target: targetSchema,
  querySelector: z.string().nullable(),
  anchor: z.nullable(anchorSchema),
  anchorStatus: z.enum(ANCHOR_STATUSES).nullable(),
  dotPosition: point,
  pdfPage: z.number().int().nullable(),
  deviceSize: z.enum(DEVICE_SIZES),
  deviceWidth: z.number().int(),
  isResolved: z.boolean(),
  resolvedBy: z.string().nullable(),
  copiedFromVersion: z.string().nullable(),
  /** SPEC §3: the comment (its first entry) carries a video, of this many seconds. */
  hasVideo: z.boolean(),
  videoDuration: z.number().min(0).nullable(),
  createdAt: z.iso.datetime(),
  modifiedAt: z.iso.datetime(),
  thread: z.array(threadEntrySchema),
  abilities: commentAbilitiesSchema,
});
export type Comment = z.infer<typeof commentSchema>;

/** DELETE /api/comments/{id}/entries/{entryId}: whether the whole comment went with it (its first entry). */
export const entryDeletedSchema = z.strictObject({ commentDeleted: z.boolean() });
/** POST …/comments/copy-unresolved: how many were copied (0 with the message that there were none). */
export const commentsCopiedSchema = z.strictObject({ copied: z.number().int().min(0) });

/** Shown for authors whose account is gone (SPEC §6). */
export const DELETED_USER_NAME = "Deleted User";

export const COMMENT_MESSAGES = {
  noUnresolved: "No unresolved comments found on previous version.",
  pullFailed: "Error occured while pulling comments.",
  noPagesToUpdate: "No pages to update, please open your web app & add it using our Chrome extension.",
} as const;
