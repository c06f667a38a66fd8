/**
 * A deploy replaces the hashed chunks; a tab opened before it then fails to import a lazy route.
 * SPEC §8: a failed client chunk load reloads the page. A timestamp in sessionStorage makes sure we
 * reload at most once per short window, so a truly missing chunk shows the error screen, not a loop.
 * Every lazy import is a route's `lazy`, so failures (including Vite's preload errors, which are
 * rethrown when not prevented) reach the router's error element, which calls this at the address
 * the user asked for.
 */
const KEY = "redline:chunk-reload-at";
const WINDOW_MS = 10_000;

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported|Failed to fetch module|Unable to preload CSS/i.test(
    error.message,
  );
}

/** Reloads once; returns false when a reload already happened moments ago. */
export function reloadOnceForChunkError(): boolean {
  const last = Number(sessionStorage.getItem(KEY) ?? 0);
  if (Date.now() - last < WINDOW_MS) return false;
  sessionStorage.setItem(KEY, String(Date.now()));
  window.location.reload();
  return true;
}
