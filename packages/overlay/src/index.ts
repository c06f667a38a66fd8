/**
 * @redline/overlay — the one script a captured page runs (bundled to dist/overlay.js by build.mjs and
 * injected by the content server as `<script src="/overlay.js" data-app-origin="…" defer>`).
 *
 * It lets the reviewer pick elements and shows comment pins; the app, in the parent window, owns
 * every thread and all other UI and talks to it through the frame protocol in @redline/shared
 * (frame-messages.ts). The page is treated as hostile: our UI lives in the shadow root of one
 * <redline-overlay> element, we add one frozen global (`__redlineOverlay`, for tests and debugging),
 * and we listen only to the parent window at the app origin. The in-page kit (@redline/inpage) gives the
 * host, the DOM access the page cannot replace, and the global an element's id cannot fake.
 */
import { isStarted, setGlobal } from "@redline/inpage";
import { FRAME_PROTOCOL } from "@redline/shared";
import { readAppOrigin } from "./config.ts";
import { dom } from "./dom.ts";
import { type OverlayState, type OverlayStats, startOverlay } from "./overlay.ts";

export interface OverlayGlobal {
  readonly protocol: typeof FRAME_PROTOCOL;
  readonly appOrigin: string;
  state(): OverlayState;
  stats(): OverlayStats;
}

declare global {
  interface Window {
    __redlineOverlay?: OverlayGlobal;
  }
}
const GLOBAL = "__redlineOverlay";

/**
 * Form state HTML cannot carry: a checkbox that was indeterminate when captured (the capture marks it;
 * `indeterminate` is a property only a script can set). Done before the reviewer sees the page.
 */
export const INDETERMINATE_ATTRIBUTE = "data-redline-indeterminate";
function restoreFormState(): void {
  for (const element of dom.querySelectorAll(`input[${INDETERMINATE_ATTRIBUTE}]`))
    if (element instanceof HTMLInputElement) element.indeterminate = true;
}

function main(): void {
  // Injected twice, or the page is not in a frame (opened directly): nothing to do.
  if (isStarted(GLOBAL) || window.parent === window) return;
  const appOrigin = readAppOrigin(document);
  if (!appOrigin) {
    console.warn("[redline] overlay not started: no valid data-app-origin on its script tag");
    return;
  }
  const start = () => {
    restoreFormState();
    const overlay = startOverlay(appOrigin);
    setGlobal<OverlayGlobal>(GLOBAL, {
      protocol: FRAME_PROTOCOL,
      appOrigin,
      state: overlay.state,
      stats: overlay.stats,
    });
  };
  if (dom.readyState() === "loading") dom.listen("DOMContentLoaded", start, { once: true });
  else start();
}

main();
