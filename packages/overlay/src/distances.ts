/**
 * Cmd/Ctrl + hover with an element selected (SPEC §1, §2 "detect spacing"): the gaps between the
 * selected element's box and the hovered one, as lines with px labels. Apart boxes show the gap
 * on each axis where they are apart; nested boxes show the inner box's distance to each edge of
 * the outer one; overlapping boxes show how far their top and left edges are apart.
 */
import { createElementIn } from "./dom.ts";

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Segment {
  /** Horizontal lines have y1 === y2, vertical ones x1 === x2. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Length in CSS px, rounded for the label. */
  length: number;
}

const contains = (outer: Box, inner: Box) =>
  outer.left <= inner.left &&
  outer.top <= inner.top &&
  outer.right >= inner.right &&
  outer.bottom >= inner.bottom;

/** The middle of the overlap of [a1, a2] and [b1, b2], or null when they do not overlap. */
function overlapMiddle(a1: number, a2: number, b1: number, b2: number): number | null {
  const start = Math.max(a1, b1);
  const end = Math.min(a2, b2);
  return end >= start ? (start + end) / 2 : null;
}

export function measureDistances(selected: Box, hovered: Box): Segment[] {
  const segments: Segment[] = [];
  const horizontal = (y: number, x1: number, x2: number) =>
    segments.push({
      x1: Math.min(x1, x2),
      y1: y,
      x2: Math.max(x1, x2),
      y2: y,
      length: round(Math.abs(x2 - x1)),
    });
  const vertical = (x: number, y1: number, y2: number) =>
    segments.push({
      x1: x,
      y1: Math.min(y1, y2),
      x2: x,
      y2: Math.max(y1, y2),
      length: round(Math.abs(y2 - y1)),
    });
  const a = selected;
  const b = hovered;

  if (contains(a, b) || contains(b, a)) {
    const [outer, inner] = contains(b, a) ? [b, a] : [a, b];
    const x = (inner.left + inner.right) / 2;
    const y = (inner.top + inner.bottom) / 2;
    vertical(x, outer.top, inner.top);
    horizontal(y, inner.right, outer.right);
    vertical(x, inner.bottom, outer.bottom);
    horizontal(y, outer.left, inner.left);
  } else {
    const y = overlapMiddle(a.top, a.bottom, b.top, b.bottom) ?? (a.top + a.bottom) / 2;
    const x = overlapMiddle(a.left, a.right, b.left, b.right) ?? (a.left + a.right) / 2;
    const isApartX = b.left >= a.right || a.left >= b.right;
    const isApartY = b.top >= a.bottom || a.top >= b.bottom;
    if (b.left >= a.right) horizontal(y, a.right, b.left);
    else if (a.left >= b.right) horizontal(y, b.right, a.left);
    if (b.top >= a.bottom) vertical(x, a.bottom, b.top);
    else if (a.top >= b.bottom) vertical(x, b.bottom, a.top);
    if (!isApartX && !isApartY) {
      vertical(x, a.top, b.top);
      horizontal(y, a.left, b.left);
    }
  }
  return segments.filter((segment) => segment.length > 0);
}

const round = (value: number) => Math.round(value * 10) / 10;

/** Draws the segments into `layer` (in our host's coordinates: `origin` is its client position). */
export function drawDistances(
  layer: HTMLElement,
  segments: Segment[],
  origin: { x: number; y: number },
): void {
  const doc = layer.ownerDocument;
  layer.replaceChildren(
    ...segments.map((segment) => {
      const line = createElementIn(doc, "div");
      const isHorizontal = segment.y1 === segment.y2;
      line.className = `distance ${isHorizontal ? "is-horizontal" : "is-vertical"}`;
      const style = line.style;
      style.transform = `translate(${segment.x1 - origin.x}px, ${segment.y1 - origin.y}px)`;
      style.width = `${isHorizontal ? segment.x2 - segment.x1 : 1}px`;
      style.height = `${isHorizontal ? 1 : segment.y2 - segment.y1}px`;
      const label = createElementIn(doc, "span");
      label.className = "distance-label";
      label.textContent = `${Math.round(segment.length)}`;
      line.append(label);
      return line;
    }),
  );
  layer.hidden = segments.length === 0;
}
