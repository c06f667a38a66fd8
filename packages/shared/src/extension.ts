import { z } from "zod";
import {
  EXTENSION_MAX_PAGE_BYTES,
  EXTENSION_MAX_SCREENSHOT_BYTES,
  EXTENSION_MESSAGES,
} from "./extension-constants.ts";

export * from "./extension-constants.ts";

/**
 * The browser extension (apps/extension, issue #31): it signs in without a password — its popup opens
 * the app, the signed-in person approves, and the extension takes a credential of its own (listed and
 * revocable in Account Settings → API tokens, ended by signing out) — and adds the page in the user's own
 * tab to a project they may edit, serialized there by the same SingleFile core as the server's captures.
 */

/** A PKCE-style pair: the extension keeps the verifier; the app approves its SHA-256 (base64url). */
const base64url = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Send a 43-character base64url value.");

export const extensionGrantSchema = z.object({ challenge: base64url }).strict();
export const extensionSessionSchema = z.object({ verifier: base64url }).strict();

export const extensionAddPageSchema = z
  .object({
    projectId: z.string().min(1).max(64),
    /** A new version of this page; absent: a new page. */
    pageId: z.string().min(1).max(64).optional(),
    url: z.url({ protocol: /^https?$/, message: "Only web pages (http or https) can be added." }).max(2048),
    title: z.string().trim().max(200).default(""),
    /** SingleFile's serialization of the tab (sanitized by the server before anyone sees it). */
    html: z.string().min(1).max(EXTENSION_MAX_PAGE_BYTES, EXTENSION_MESSAGES.tooLarge),
    /** The visible pixels (PNG, base64), for comparing the snapshot with what the user saw. */
    screenshot: z
      .string()
      .max(Math.ceil((EXTENSION_MAX_SCREENSHOT_BYTES * 4) / 3))
      .optional(),
    width: z.number().int().min(200).max(4000),
  })
  .strict();
export type ExtensionAddPage = z.input<typeof extensionAddPageSchema>;

export const extensionThreadsQuerySchema = z.object({ url: z.string().min(1).max(2048) }).strict();
