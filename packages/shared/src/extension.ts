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

/** GET /api/extension/projects: a project the extension may add pages to, with its pages. */
export const extensionProjectSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  type: z.string(),
  pages: z.array(z.strictObject({ id: z.string(), title: z.string(), url: z.string() })),
});
export type ExtensionProject = z.infer<typeof extensionProjectSchema>;

/** POST /api/extension/session: the extension's credential and whose it is. */
export const extensionSessionAnswerSchema = z.strictObject({
  secret: z.string(),
  user: z.strictObject({ name: z.string(), email: z.string() }),
});
export type ExtensionSession = z.infer<typeof extensionSessionAnswerSchema>;

/** GET /api/extension/threads: an open thread on a page at the address. */
export const extensionThreadSchema = z.strictObject({
  id: z.string(),
  text: z.string(),
  projectTitle: z.string(),
  pageTitle: z.string(),
  /** Where the thread opens in the app (a path on the app's origin). */
  path: z.string(),
});
export type ExtensionThread = z.infer<typeof extensionThreadSchema>;

/** POST /api/extension/pages: the page (or version) added. */
export const extensionAddedSchema = z.strictObject({
  projectId: z.string(),
  pageId: z.string(),
  versionId: z.string(),
  /** The page's view in the app (a path on the app's origin). */
  path: z.string(),
});
export type ExtensionAdded = z.infer<typeof extensionAddedSchema>;
