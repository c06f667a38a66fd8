import { z } from "zod";

/**
 * The browser extension (apps/extension, issue #31): it signs in without a password — its popup opens
 * the app, the signed-in person approves, and the extension takes a credential of its own (listed and
 * revocable in Account Settings → API tokens, ended by signing out) — and adds the page in the user's own
 * tab to a project they may edit, serialized there by the same SingleFile core as the server's captures.
 */

/**
 * The extension's id in Chromium-based browsers, fixed by the public key in its manifest
 * (apps/extension/wxt.config.ts): its origin is `chrome-extension://<id>`.
 */
export const EXTENSION_ID = "fncbnojmmgehlmnlhmhffmaikeogdidf";
/** The icon the app loads to tell whether the extension is installed (web_accessible_resources). */
export const EXTENSION_ICON_PATH = "/icon/16.png";
/** How often the app looks for the extension's icon (SPEC §7, §9). */
export const EXTENSION_POLL_MS = 2000;
/** The name an extension credential is listed under in Account Settings. */
export const EXTENSION_CREDENTIAL_NAME = "Browser extension";
/** Largest serialized page the extension may upload (the popup refuses larger ones before sending). */
export const EXTENSION_MAX_PAGE_BYTES = 20 * 1024 * 1024;
/** Largest visible-pixels screenshot (a PNG, base64 in the upload). */
export const EXTENSION_MAX_SCREENSHOT_BYTES = 8 * 1024 * 1024;
/** How long an approval waits for the extension to take its credential. */
export const EXTENSION_GRANT_TTL_MS = 5 * 60_000;

export const EXTENSION_MESSAGES = {
  approved: "The Redline extension is signed in. You can close this tab.",
  pending: "Waiting for you to approve the extension in Redline.",
  notFromExtension: "Only the Redline browser extension may call this.",
  invalid: "The extension is signed out: sign in again from its popup.",
  notForExtension: "The browser extension cannot be used for this.",
  tooLarge: "This page is larger than 20 MB, the most the extension can add.",
  projectUnavailable: "This project does not take pages from the extension.",
  added: "Page added.",
  signedOut: "The extension is signed out.",
} as const;

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

export interface ExtensionProject {
  id: string;
  title: string;
  type: string;
  pages: { id: string; title: string; url: string }[];
}

export interface ExtensionSession {
  secret: string;
  user: { name: string; email: string };
}

export interface ExtensionThread {
  id: string;
  text: string;
  projectTitle: string;
  pageTitle: string;
  /** Where the thread opens in the app (a path on the app's origin). */
  path: string;
}

export interface ExtensionAdded {
  projectId: string;
  pageId: string;
  versionId: string;
  /** The page's view in the app (a path on the app's origin). */
  path: string;
}
