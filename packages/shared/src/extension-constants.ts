/** The extension's constants, texts and answers, without zod: the extension (apps/extension) imports them. */

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

// The answers' types, inferred from their schemas (extension.ts); a type-only export loads no zod.
export type {
  ExtensionAdded,
  ExtensionProject,
  ExtensionSession,
  ExtensionThread,
} from "./extension.ts";
