/**
 * Knowing when a page has settled, instead of guessing with a fixed quiet window.
 *
 * A fixed window (Playwright's "networkidle" is 500 ms, ours was 250 ms) is both slow and blind: a
 * static page waits the whole window for nothing, and a page whose script fetches content from a
 * `setTimeout(…, 400)` finishes after the window has closed. So an init script, run in every frame
 * before the page's own scripts, keeps count of what can still change the page soon:
 *
 * - timers and idle callbacks due within `SOON_MS` (longer ones — carousels, polling — are not
 *   waited for; neither are intervals or animation frames, which never end);
 * - whether anything could load content on scroll: an observed IntersectionObserver, or a scroll /
 *   wheel / resize listener on the window or document. Without one, scrolling cannot load anything (native
 *   `loading=lazy` is switched to eager first), so the sweep is skipped.
 *
 * The page cannot see or break this: the wrappers call the originals with the same arguments and
 * the state lives in a closure behind one non-enumerable accessor.
 */
import type { Page } from "playwright-core";

/** Timers due within this many ms keep the page "busy". */
export const SOON_MS = 1_000;

const STATE = "__redlineActivity";

/** The init script source: wraps timers, idle callbacks and the two ways to react to a scroll. */
export const activityHook = `(() => {
if (Object.getOwnPropertyDescriptor(globalThis, ${JSON.stringify(STATE)})) return;
const soon = ${SOON_MS};
const timers = new Set();
const idles = new Set();
let scrollAware = false;
let lastFired = -Infinity;
const track = (set, schedule, cancel, delayOf) => [
  function (handler, ...rest) {
    if (typeof handler !== "function") return schedule.call(this, handler, ...rest);
    let id;
    const wrapped = function (...args) {
      set.delete(id);
      lastFired = performance.now();
      return handler.apply(this, args);
    };
    id = schedule.call(this, wrapped, ...rest);
    if (delayOf(rest) <= soon) set.add(id);
    return id;
  },
  function (id) { set.delete(id); return cancel.call(this, id); },
];
[globalThis.setTimeout, globalThis.clearTimeout] =
  track(timers, setTimeout, clearTimeout, (rest) => Number(rest[0]) || 0);
if (globalThis.requestIdleCallback)
  [globalThis.requestIdleCallback, globalThis.cancelIdleCallback] =
    track(idles, requestIdleCallback, cancelIdleCallback, () => 0);
if (globalThis.IntersectionObserver) {
  const observe = IntersectionObserver.prototype.observe;
  IntersectionObserver.prototype.observe = function (...args) {
    scrollAware = true;
    return observe.apply(this, args);
  };
}
const listen = EventTarget.prototype.addEventListener;
const scrollEvents = new Set(["scroll", "wheel", "resize"]);
EventTarget.prototype.addEventListener = function (type, ...rest) {
  if (scrollEvents.has(type) && (this === globalThis || this === document)) scrollAware = true;
  return listen.call(this, type, ...rest);
};
Object.defineProperty(globalThis, ${JSON.stringify(STATE)}, {
  configurable: false,
  enumerable: false,
  get: () => ({
    pending: timers.size + idles.size,
    sinceFired: performance.now() - lastFired,
    scrollAware: scrollAware || globalThis.onscroll != null || document.onscroll != null ||
      document.body?.onscroll != null || globalThis.onwheel != null || globalThis.onresize != null,
  }),
});
})();`;

interface FrameActivity {
  pending: number;
  /** ms since a tracked timer last ran (what it started may not have reached the network yet). */
  sinceFired: number;
  scrollAware: boolean;
}

/** The activity of every frame that runs the hook (a sandboxed frame without scripts does not). */
async function framesActivity(page: Page): Promise<FrameActivity[]> {
  const states = await Promise.all(
    page
      .frames()
      .map(
        (frame) =>
          frame.evaluate(`globalThis.${STATE} ?? null`).catch(() => null) as Promise<FrameActivity | null>,
      ),
  );
  return states.filter((state): state is FrameActivity => state !== null);
}

/** Whether any frame has a timer due soon, or ran one within `idleMs`. */
async function busy(page: Page, idleMs: number): Promise<boolean> {
  const states = await framesActivity(page);
  return states.some((state) => state.pending > 0 || state.sinceFired < idleMs);
}

export interface SettleOptions {
  /** No routed request in flight for this long counts as network quiet. */
  idleMs: number;
  /** After this long, timers due soon are no longer waited for (a timer chain never ends). */
  timersCapMs: number;
  /** Cap for the whole wait. */
  capMs: number;
}

/**
 * Resolves once the network has been quiet for `idleMs` and no frame has a timer due soon or ran
 * one within `idleMs`, or when the caps are reached.
 */
export async function settle(
  page: Page,
  network: { isQuiet(idleMs: number): boolean },
  { idleMs, timersCapMs, capMs }: SettleOptions,
): Promise<void> {
  const start = performance.now();
  while (performance.now() - start < capMs) {
    if (network.isQuiet(idleMs)) {
      const waitForTimers = performance.now() - start < timersCapMs;
      if (!waitForTimers || !(await busy(page, idleMs))) {
        if (network.isQuiet(idleMs)) return; // nothing started while we asked the page
        continue;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether scrolling any frame could load something (see the header). */
export async function reactsToScroll(page: Page): Promise<boolean> {
  const states = await framesActivity(page);
  return states.some((state) => state.scrollAware);
}
