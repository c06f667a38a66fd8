/** The extension's rules, pure (extension.rules.test.ts). */

// Which projects take pages from the extension: a rule of pages (the image-page route asks it too), so
// pages does not import this module.
export {
  assertOffersExtension,
  EXTENSION_PROJECT_TYPES,
  offersExtension,
} from "../pages/offers-extension.ts";

/**
 * The addresses a tab's URL may be stored under as a page: as it is, without its fragment, and with or
 * without a trailing slash on the path (the badge counts threads of any of them).
 */
export function pageUrlVariants(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return [];
  parsed.hash = "";
  const bare = parsed.toString();
  const other = parsed.pathname.endsWith("/")
    ? bare.replace(/\/(\?|$)/, "$1")
    : bare.replace(/(\?|$)/, "/$1");
  return [...new Set([url, bare, other])];
}
