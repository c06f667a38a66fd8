/** describe(): element → Anchor (selectors, fingerprint, click point), and the click point back. */
import { rectOf } from "@redline/inpage";
import { readFingerprint } from "./fingerprint.ts";
import { cssSelectors, idPath, xpath } from "./selectors.ts";
import type { Anchor } from "./types.ts";

const clamp = (value: number) => Math.min(1, Math.max(0, value));
const fraction = (value: number) => Math.round(clamp(value) * 10_000) / 10_000;

export function describe(element: Element, point?: { x: number; y: number }): Anchor {
  const { shortest, robust } = cssSelectors(element);
  let dot: Anchor["dot"] = null;
  if (point) {
    const box = rectOf(element);
    dot = {
      x: box.width > 0 ? fraction((point.x - box.left) / box.width) : 0.5,
      y: box.height > 0 ? fraction((point.y - box.top) / box.height) : 0.5,
    };
  }
  return {
    v: 1,
    querySelector: shortest,
    selectors: { css: robust, xpath: xpath(element), idPath: idPath(element) },
    fingerprint: readFingerprint(element),
    dot,
  };
}

/** The stored click point on `element` now, in client (viewport) coordinates; the centre without one. */
export function dotPosition(element: Element, anchor: Anchor): { x: number; y: number } {
  const box = rectOf(element);
  const dot = anchor.dot ?? { x: 0.5, y: 0.5 };
  return { x: box.left + clamp(dot.x) * box.width, y: box.top + clamp(dot.y) * box.height };
}
