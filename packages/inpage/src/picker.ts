/**
 * The kit's element picker: hover outlines the page element under the pointer, a click picks it, a drag
 * marks a region, Escape cancels. A layer in the kit's shadow root covers the page meanwhile, so the page
 * gets no presses or clicks; the element under the pointer is found beneath our own host, never in it.
 * Everything goes through the page-safe references (safe.ts): a page that replaced `elementFromPoint`,
 * `addEventListener` or the event getters, or names an element like ours, neither stops nor steers it.
 */
import {
  appendChild,
  clientXOf,
  clientYOf,
  contains,
  createElement,
  createTextNode,
  elementsFromPoint,
  keyOf,
  listen,
  pointerIdOf,
  preventDefault,
  rectOf,
  removeElement,
  setAttribute,
  setPointerCapture,
  stopPropagation,
  unlisten,
} from "./safe.ts";

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Picked {
  /** The clicked element; null for a dragged region. */
  element: Element | null;
  /** In viewport CSS pixels: the clicked element's box, or the dragged region. */
  region: Region | null;
  /** Where the element was clicked, in viewport CSS pixels (null for a region). */
  point: { x: number; y: number } | null;
}

export interface PickOptions {
  /** The instruction shown while picking. */
  hint?: string;
  /** Class names of the layer, the outline and the hint, for the kit's own CSS. */
  classes?: { layer: string; box: string; hint: string };
}

/** A pointer that moves less than this between press and release clicks; further, it drags. */
export const DRAG_THRESHOLD = 6;

/**
 * The page's element at a viewport point, never our `host` nor anything in it. By default our host is
 * looked through (the picker's layer covers the page); `beneathHost: false` answers null where our own UI
 * is on top instead.
 */
export function pageElementAt(
  doc: Document,
  host: Element,
  x: number,
  y: number,
  { beneathHost = true } = {},
): Element | null {
  for (const element of elementsFromPoint(doc, x, y)) {
    if (element !== host && !contains(host, element)) return element;
    if (!beneathHost) return null;
  }
  return null;
}

/** The rectangle between two viewport points. */
export const regionBetween = (a: { x: number; y: number }, b: { x: number; y: number }): Region => ({
  x: Math.min(a.x, b.x),
  y: Math.min(a.y, b.y),
  width: Math.abs(b.x - a.x),
  height: Math.abs(b.y - a.y),
});

const boxOf = (element: Element): Region => {
  const rect = rectOf(element);
  return { x: rect.left, y: rect.top, width: rect.width, height: rect.height };
};

/** Lets the reporter pick an element or drag a region over the page; null when they press Escape. */
export function pick(root: ShadowRoot, host: Element, options: PickOptions = {}): Promise<Picked | null> {
  const doc = host.ownerDocument;
  const view = doc.defaultView ?? window;
  const classes = options.classes ?? { layer: "pick-layer", box: "pick-box", hint: "pick-hint" };
  return new Promise((resolve) => {
    const make = (className: string, attributes: Record<string, string> = {}) => {
      const element = createElement(doc, "div");
      setAttribute(element, "class", className);
      for (const [name, value] of Object.entries(attributes)) setAttribute(element, name, value);
      return element;
    };
    const layer = make(classes.layer, { "aria-label": "Pick an element or drag a region" });
    const box = make(classes.box);
    const hint = make(classes.hint, { role: "status" });
    appendChild(
      hint,
      createTextNode(doc, options.hint ?? "Click an element or drag to mark a region · Esc to cancel"),
    );
    appendChild(layer, box);
    appendChild(layer, hint);
    appendChild(root, layer);

    const show = (region: Region | null) =>
      setAttribute(
        box,
        "style",
        region
          ? `display:block;left:${region.x}px;top:${region.y}px;width:${region.width}px;height:${region.height}px`
          : "display:none",
      );
    let start: { x: number; y: number } | null = null;
    let dragging = false;
    const at = (event: Event) => ({ x: clientXOf(event as MouseEvent), y: clientYOf(event as MouseEvent) });
    const under = (point: { x: number; y: number }) => pageElementAt(doc, host, point.x, point.y);

    const onKey = (event: Event) => {
      if (keyOf(event as KeyboardEvent) !== "Escape") return;
      stopPropagation(event);
      finish(null);
    };
    const onDown = (event: Event) => {
      preventDefault(event);
      start = at(event);
      dragging = false;
      try {
        setPointerCapture(layer, pointerIdOf(event as PointerEvent));
      } catch {}
    };
    const onMove = (event: Event) => {
      const point = at(event);
      if (start && (dragging || Math.hypot(point.x - start.x, point.y - start.y) > DRAG_THRESHOLD)) {
        dragging = true;
        show(regionBetween(start, point));
        return;
      }
      const element = under(point);
      show(element ? boxOf(element) : null);
    };
    const onUp = (event: Event) => {
      if (!start) return;
      const point = at(event);
      if (dragging) return finish({ element: null, region: regionBetween(start, point), point: null });
      const element = under(point);
      finish({ element, region: element ? boxOf(element) : null, point: element ? point : null });
    };
    const listeners: [EventTarget, string, (event: Event) => void, boolean][] = [
      [view, "keydown", onKey, true],
      [layer, "pointerdown", onDown, false],
      [layer, "pointermove", onMove, false],
      [layer, "pointerup", onUp, false],
    ];
    for (const [target, type, listener, capture] of listeners) listen(target, type, listener, capture);
    function finish(picked: Picked | null) {
      for (const [target, type, listener, capture] of listeners) unlisten(target, type, listener, capture);
      removeElement(layer);
      resolve(picked);
    }
  });
}
