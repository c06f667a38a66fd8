/**
 * The overlay inside a captured page: wires the frame protocol to the picker and the pins, and keeps
 * everything drawn in place. Anything that can move an element (scrolling the page or an inner
 * scroller, resizing the frame, fonts and images arriving, an observed element changing size) asks
 * for one update in the next animation frame; the update measures the document when its layout may
 * have changed, then moves the pins and the outlines. Inspect mode (selection, in-place edits,
 * moves) lives in inspector.ts; the changes the app shows, in inspect mode and preview, in changes.ts.
 */
import { listen, rectOf } from "@redline/inpage";
import type { OverlayMode, ParentToOverlayMessage } from "@redline/shared";
import { Changes } from "./changes.ts";
import { dom } from "./dom.ts";
import { createHost } from "./host.ts";
import { Inspector, toFrameAnchor } from "./inspector.ts";
import { connect } from "./messenger.ts";
import { Picker } from "./picker.ts";
import { type LayoutContext, Pins } from "./pins.ts";

export interface OverlayState {
  mode: OverlayMode;
  /** Pins received in the last pins:set. */
  pins: number;
  /** Pins drawn on the page right now. */
  shown: number;
  visible: boolean;
}

/** Timings for the benchmark (performance.now() milliseconds). */
export interface OverlayStats {
  /** When startOverlay() began, and when it posted overlay:ready. */
  startedAt: number;
  readyAt: number;
  /** Frame updates run so far, and their total and longest duration. */
  updates: number;
  updateMs: number;
  maxUpdateMs: number;
  /** From the last pins:set to its pins:anchored (anchoring runs in slices in between)… */
  pinsSetMs: number;
  /** …and the longest of those slices, the time the page could not respond. */
  pinsSetLongestSliceMs: number;
}

export interface Overlay {
  host: HTMLElement;
  state(): OverlayState;
  stats(): OverlayStats;
}

export function startOverlay(appOrigin: string): Overlay {
  const startedAt = performance.now();
  const ui = createHost(document);
  let mode: OverlayMode = "browse";
  let visible = true;
  let frame = 0;
  let isLayoutDirty = true;
  let scrolled = false;
  let size = { width: 0, height: 0 };
  let scroll = { x: window.scrollX, y: window.scrollY };
  const stats: OverlayStats = {
    startedAt,
    readyAt: 0,
    updates: 0,
    updateMs: 0,
    maxUpdateMs: 0,
    pinsSetMs: 0,
    pinsSetLongestSliceMs: 0,
  };

  const requestFrame = () => {
    if (!frame) frame = requestAnimationFrame(update);
  };
  const requestLayout = () => {
    isLayoutDirty = true;
    requestFrame();
  };

  const resizeObserver = new ResizeObserver(requestLayout);
  resizeObserver.observe(dom.root());
  const body = dom.body();
  if (body) resizeObserver.observe(body);

  const messenger = connect(appOrigin, handleMessage);
  const pins = new Pins(
    ui.pins,
    ui.clip,
    (id) => messenger.post("pin:select", { id }),
    (element) => resizeObserver.observe(element),
    requestFrame,
  );
  const changes = new Changes();
  const picker: Picker = new Picker(
    ui.host,
    ui.highlight,
    ({ element, anchor, rect }) => {
      const frameAnchor = toFrameAnchor(anchor);
      messenger.post("pick:element", {
        anchor: frameAnchor,
        dotPosition: anchor.dot ?? { x: 0.5, y: 0.5 },
        rect: { x: rect.x, y: rect.y, width: rect.width, height: rect.height },
        deviceWidth: window.innerWidth,
      });
      if (mode === "inspect") inspector.select(element, frameAnchor);
    },
    requestFrame,
    {
      isPassThrough: (event): boolean => inspector.editor.isInside(event),
      onDoubleClick: (element, point) => inspector.handleDoubleClick(element, point),
    },
  );
  const inspector: Inspector = new Inspector(
    ui,
    changes,
    messenger.post,
    requestFrame,
    (): Element | null => picker.hoveredElement,
  );

  function handleMessage(message: ParentToOverlayMessage): void {
    switch (message.type) {
      case "overlay:mode":
        mode = message.payload.mode;
        picker.setActive(mode !== "browse");
        inspector.setActive(mode === "inspect");
        break;
      case "inspect:apply":
        inspector.afterApply(changes.set(message.payload.changes));
        break;
      case "inspect:select":
        inspector.selectAnchor(message.payload?.anchor ?? null);
        break;
      case "pins:set": {
        const start = performance.now();
        pins.set(message.payload.pins, (results) => {
          stats.pinsSetMs = performance.now() - start;
          stats.pinsSetLongestSliceMs = pins.longestSliceMs;
          messenger.post("pins:anchored", { results });
        });
        break;
      }
      case "pin:focus":
        pins.focus(message.payload.id, context());
        break;
      case "pin:candidate": {
        const { id, index } = message.payload;
        const shown = pins.showCandidate(id, index, context());
        if (shown) messenger.post("pin:candidate", { id, index, ...shown });
        break;
      }
      case "pins:visible":
        visible = message.payload.visible;
        pins.setVisible(visible);
        break;
      case "pending:set":
        pins.setPending(message.payload);
        break;
    }
    requestFrame();
  }

  function context(): LayoutContext {
    const origin = rectOf(ui.host);
    return { origin: { x: origin.left, y: origin.top }, document: size };
  }

  /** The document's scroll size without us: our clipping layer is collapsed while it is read. */
  function measureDocument(): { width: number; height: number } {
    const scroller = dom.scrollingElement() ?? dom.root();
    const style = ui.clip.style;
    style.width = style.height = "0px";
    const measured = { width: scroller.scrollWidth, height: scroller.scrollHeight };
    style.width = `${measured.width}px`;
    style.height = `${measured.height}px`;
    return measured;
  }

  function update(): void {
    const start = performance.now();
    frame = 0;
    if (isLayoutDirty) {
      isLayoutDirty = false;
      const measured = measureDocument();
      if (measured.width !== size.width || measured.height !== size.height) {
        size = measured;
        messenger.post("document:size", size);
      }
    }
    const current = context();
    pins.layout(current);
    picker.layout(current.origin, scrolled);
    inspector.layout(current.origin);
    scrolled = false;
    if (window.scrollX !== scroll.x || window.scrollY !== scroll.y) {
      scroll = { x: window.scrollX, y: window.scrollY };
      messenger.post("document:scroll", scroll);
    }
    const duration = performance.now() - start;
    stats.updates++;
    stats.updateMs += duration;
    stats.maxUpdateMs = Math.max(stats.maxUpdateMs, duration);
  }

  const handleScroll = () => {
    scrolled = true;
    requestFrame();
  };
  // Capture: scroll events of inner scrollers do not bubble, but they do pass the document.
  dom.listen("scroll", handleScroll, { capture: true, passive: true });
  listen(window, "resize", () => {
    // Mobile changes come and go at the breakpoint.
    inspector.afterApply(changes.handleResize());
    requestLayout();
  });
  listen(window, "load", requestLayout);
  // Images, media and frames finishing loading anywhere in the page (load does not bubble).
  dom.listen("load", requestLayout, { capture: true });
  dom.fonts()?.addEventListener("loadingdone", requestLayout);

  size = measureDocument();
  messenger.post("overlay:ready", { ...size, url: location.href });
  stats.readyAt = performance.now();
  requestFrame();

  return {
    host: ui.host,
    state: () => ({ mode, pins: pins.count, shown: pins.shownCount, visible }),
    stats: () => ({ ...stats }),
  };
}
