import { z } from "zod";
import { MAX_UPLOAD_BYTES } from "./constants.ts";
import { type FrameAnchor, frameAnchorSchema } from "./frame-messages.ts";
import { type EntryVideo, videoInputSchema } from "./video.ts";

/** Mentions are written as `{@uid}` in a comment's text (SPEC §5). */
export const MENTION_PATTERN = /\{@([A-Za-z0-9_-]{1,64})\}/g;

export function extractMentions(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION_PATTERN)].map((match) => match[1]!))];
}

/** Below 741 px a comment or edit belongs to the mobile layout (SPEC §9 edits breakpoint 741/740). */
export const MOBILE_DEVICE_MAX_WIDTH = 740;
export type DeviceSize = "default" | "mobile";
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
    /** Web pages: the element and the click point inside it. */
    anchor: z.optional(anchorSchema),
    /** Where the pin sits: a fraction of the element's box (web) or of the image / PDF page. */
    dotPosition: z.object({ x: fraction, y: fraction }),
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
export const updateCommentSchema = z
  .object({
    isResolved: z.boolean(),
    dotPosition: z.object({ x: fraction, y: fraction }),
    anchor: anchorSchema,
    anchorStatus: z.enum(["exact", "fuzzy", "needs-review", "orphaned"]),
  })
  .partial()
  .strict();

export type AnchorStatus = "exact" | "fuzzy" | "needs-review" | "orphaned";

export interface CommentAuthor {
  uid: string | null;
  displayName: string;
  photoURL: string | null;
  isGuest: boolean;
}

/** What the reader may do with one entry of a thread, computed by the server's comments policy. */
export interface EntryAbilities {
  edit: boolean;
  delete: boolean;
}

/** What the reader may do with a comment, computed by the server's comments policy. */
export interface CommentAbilities {
  reply: boolean;
  /** Attach files to a reply (members; guests write text only). */
  attach: boolean;
  resolve: boolean;
  /** Move the pin, keep a re-anchored position or record how it anchored. */
  move: boolean;
}

/** SPEC §3: an entry may carry a recorded video; its URL and poster once processed (`videoStatus` "ready"). */
export interface CommentEntry extends EntryVideo {
  id: string;
  createdAt: string;
  editedAt: string | null;
  userId: string | null;
  author: CommentAuthor;
  comment: string;
  attachments: Attachment[];
  abilities: EntryAbilities;
}

export interface Comment {
  id: string;
  projectId: string;
  /** A page's comment: its page and version (null on a slide's comment). */
  pageId: string | null;
  versionId: string | null;
  /** An illustration project's comment: its slide, and the object it is pinned to (null on a page's). */
  slideId: string | null;
  objectId: string | null;
  querySelector: string | null;
  anchor: AnchorData | null;
  anchorStatus: AnchorStatus | null;
  dotPosition: { x: number; y: number };
  pdfPage: number | null;
  deviceSize: DeviceSize;
  deviceWidth: number;
  isResolved: boolean;
  resolvedBy: string | null;
  copiedFromVersion: string | null;
  /** SPEC §3: the comment (its first entry) carries a video, of this many seconds. */
  hasVideo: boolean;
  videoDuration: number | null;
  createdAt: string;
  modifiedAt: string;
  thread: CommentEntry[];
  abilities: CommentAbilities;
}

/** Shown for authors whose account is gone (SPEC §6). */
export const DELETED_USER_NAME = "Deleted User";

export const COMMENT_MESSAGES = {
  noUnresolved: "No unresolved comments found on previous version.",
  pullFailed: "Error occured while pulling comments.",
  noPagesToUpdate: "No pages to update, please open your web app & add it using our Chrome extension.",
} as const;
