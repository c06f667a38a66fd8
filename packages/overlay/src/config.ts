/** Where the overlay finds its configuration: the `data-app-origin` of the script tag that loaded it. */
import { currentScriptOf, querySelectorIn } from "./dom.ts";

/**
 * The app origin our script tag names, or null when it is missing or not a plain http(s) origin.
 * `document.currentScript` is only set while the script first runs, so call this at start-up.
 */
export function readAppOrigin(doc: Document): string | null {
  const script =
    currentScriptOf(doc) ??
    querySelectorIn<HTMLScriptElement>(doc, 'script[data-app-origin][src$="overlay.js"]');
  const value = script?.getAttribute("data-app-origin");
  if (!value) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    // Only an exact origin: a path, query or credentials would mean a misconfigured server.
    return url.origin === value.replace(/\/$/, "") ? url.origin : null;
  } catch {
    return null;
  }
}
