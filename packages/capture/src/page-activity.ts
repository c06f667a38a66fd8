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
import type { Frame, Page } from "playwright-core";

/** Timers due within this many ms keep the page "busy". */
export const SOON_MS = 1_000;
/**
 * A subframe that renders nothing (hidden, throttled offscreen) is not waited for longer than this. The
 * page itself always renders, only slowly on a busy machine, so its cap is far longer: cutting its wait
 * short would call a page settled before it drew what its next frame starts.
 */
const FRAME_CAP_MS = 100;
const MAIN_FRAME_CAP_MS = 1_000;

export const STATE = "__redlineActivity";

/** The init script source: wraps timers, idle callbacks and the two ways to react to a scroll. */
export const activityHook = `(() => {
if (Object.getOwnPropertyDescriptor(globalThis, ${JSON.stringify(STATE)})) return;
const soon = ${SOON_MS};
const raf = globalThis.requestAnimationFrame?.bind(globalThis);
const later = setTimeout.bind(globalThis);
const timers = new Set();
const idles = new Set();
let scrollAware = false;
let lastFired = -Infinity;
let scheduled = 0;
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
    if (delayOf(rest) <= soon) {
      set.add(id);
      scheduled++;
    }
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
    // How many timers and idle callbacks due soon were ever scheduled (the sweep: did a scroll defer work?).
    scheduled,
    sinceFired: performance.now() - lastFired,
    // Resolves after the next two rendering updates (style, layout, paint, intersection observers:
    // whatever they start to load is in flight by then), or after \`cap\` ms in a frame that is not rendered.
    frames: (cap) => new Promise((resolve) => {
      const done = () => resolve(true);
      later(done, cap);
      if (raf) raf(() => raf(done));
    }),
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

/**
 * The activity of every frame that runs the hook (a sandboxed frame without scripts does not);
 * with `afterRender`, read once each frame has rendered twice more.
 */
async function framesActivity(page: Page, afterRender = false): Promise<FrameActivity[]> {
  const read = (cap: number) => `(async () => {
    const hook = globalThis.${STATE};
    if (!hook) return null;
    if (${afterRender}) await hook.frames(${cap});
    const { pending, sinceFired, scrollAware } = globalThis.${STATE};
    return { pending, sinceFired, scrollAware };
  })()`;
  const states = await Promise.all(
    documentFrames(page).map(async (frame) => {
      if (silentFrames.has(frame)) return null;
      const cap = frame === page.mainFrame() ? MAIN_FRAME_CAP_MS : FRAME_CAP_MS;
      // A frame with no document yet (a lazy iframe that never started loading) has no context to
      // evaluate in: Playwright would wait for one forever. Such a frame reports nothing, and is not
      // asked again.
      // The main frame always has a document: on a loaded machine its answer can take seconds, and
      // taking it as silent would end the capture's watch of the page (no sweep, no settling).
      const answerMs = frame === page.mainFrame() ? MAIN_FRAME_ANSWER_MS : FRAME_ANSWER_MS;
      const answer = await withinMs(
        frame.evaluate(read(cap)).catch(() => null) as Promise<FrameActivity | null | undefined>,
        cap + answerMs,
        undefined,
      );
      if (answer === undefined) silentFrames.add(frame);
      return answer ?? null;
    }),
  );
  return states.filter((state): state is FrameActivity => state !== null);
}

/**
 * The frames that have a document to ask. A frame that has never committed a navigation (a
 * `loading=lazy` frame still below the fold) has no context to evaluate in, and Playwright would wait
 * for one until it loads: asking it cost a whole answer cap (600 ms) per check. It has nothing running
 * either; once it loads, it is asked like any other frame. (A frame whose document is written by
 * script, or empty, reports "about:blank".)
 */
export function documentFrames(page: Page): Frame[] {
  return page.frames().filter((frame) => frame.url() !== "");
}

/** A frame that has not answered this long after its render cap is taken as having nothing to say. */
const FRAME_ANSWER_MS = 500;
/** The main frame's: only a page whose script never yields (or a machine stalled that long) misses it. */
const MAIN_FRAME_ANSWER_MS = 10_000;
const silentFrames = new WeakSet<Frame>();

/** `promise`'s value, or `fallback` once `ms` have passed (the promise is left to settle unobserved). */
export function withinMs<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(fallback), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export interface SettleOptions {
  /** No routed request in flight for this long counts as network quiet. */
  idleMs: number;
  /** After this long, timers due soon are no longer waited for (a timer chain never ends). */
  timersCapMs: number;
  /** Cap for the whole wait. */
  capMs: number;
}

/** Why a page was still busy when its settle budget ran out. */
export type BusyReason = "network" | "timers" | "rendering";

export interface Settled {
  /** False when the budget ran out before the page was quiet (it is captured as it is then). */
  complete: boolean;
  /** What kept it busy, when not complete. */
  busy: BusyReason[];
}

/**
 * Resolves once the network has been quiet for `idleMs`, every frame has rendered twice more without
 * starting a request, and no frame has a timer due soon or ran one within `idleMs`; or when the caps
 * are reached — never later than `capMs` (plus one check), whatever the page does. Rendering is what
 * starts the loads no timer explains: fonts and background images a style change needs, images an
 * intersection observer reveals.
 */
export async function settle(
  page: Page,
  network: { isQuiet(idleMs: number): boolean },
  { idleMs, timersCapMs, capMs }: SettleOptions,
): Promise<Settled> {
  const start = performance.now();
  // Two checks in a row must find the page quiet: content a page starts a frame or two after load
  // (requestAnimationFrame chains) can fall just after one check's two frames on a busy machine.
  let quietChecks = 0;
  let last: BusyReason = "network";
  while (performance.now() - start < capMs) {
    if (network.isQuiet(idleMs)) {
      const asked = performance.now();
      const states = await framesActivity(page, true);
      const waitForTimers = asked - start < timersCapMs;
      const timersDue = states.some((state) => state.pending > 0 || state.sinceFired < idleMs);
      const busy = waitForTimers && timersDue;
      // Quiet for the whole check: nothing started while the frames rendered.
      const stayedQuiet = network.isQuiet(performance.now() - asked);
      quietChecks = !busy && stayedQuiet ? quietChecks + 1 : 0;
      // Timers still due past their cap (polling, a timer chain): captured now, but not quiet.
      if (quietChecks === 2)
        return timersDue ? { complete: false, busy: ["timers"] } : { complete: true, busy: [] };
      if (busy) last = "timers";
      else if (!stayedQuiet) last = "rendering";
      if (!busy) continue;
    } else last = "network";
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { complete: false, busy: [last] };
}

/** Whether scrolling any frame could load something (see the header). */
export async function reactsToScroll(page: Page): Promise<boolean> {
  const states = await framesActivity(page);
  return states.some((state) => state.scrollAware);
}
