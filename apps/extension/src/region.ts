/**
 * A region of the tab as an image (issue #31): the rectangle the person drags, in CSS pixels of the
 * viewport, mapped onto the visible-tab capture, which has device pixels (region.test.ts).
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The smallest region taken (CSS pixels a side): a click without a drag is not a region. */
export const MIN_REGION = 4;

/** The rectangle between two points of a drag, whichever way it went. */
export const rectBetween = (a: { x: number; y: number }, b: { x: number; y: number }): Rect => ({
  x: Math.min(a.x, b.x),
  y: Math.min(a.y, b.y),
  width: Math.abs(a.x - b.x),
  height: Math.abs(a.y - b.y),
});

/**
 * The region in the capture's pixels: scaled by the capture's width over the viewport's (the device
 * pixel ratio, zoom included), rounded outward to whole pixels and kept inside the capture.
 */
export function regionInPixels(
  rect: Rect,
  viewportWidth: number,
  image: { width: number; height: number },
): Rect {
  const scale = image.width / viewportWidth;
  const left = Math.max(0, Math.floor(rect.x * scale));
  const top = Math.max(0, Math.floor(rect.y * scale));
  const right = Math.min(image.width, Math.ceil((rect.x + rect.width) * scale));
  const bottom = Math.min(image.height, Math.ceil((rect.y + rect.height) * scale));
  return { x: left, y: top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
}

/** A file name for the image page (its title is the name without `.png`). */
export function regionFileName(title: string): string {
  const base =
    title
      .replace(/[\\/:*?"<>|\s]+/g, " ")
      .trim()
      .slice(0, 100) || "Region";
  return `${base} — region.png`;
}
