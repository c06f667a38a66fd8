/**
 * A feedback screenshot: the part of the app the user dragged over, drawn by snapdom from the live DOM
 * (as the widget draws its screenshots) at the screen's pixel density, so it looks as the user saw it.
 * The viewport is rendered, then cropped to the region; elements marked `data-feedback-exclude` (the
 * selection overlay) and any closing modal are left out. PNG, or JPEG when a PNG would pass 5 MB.
 */
import { MAX_FEEDBACK_SCREENSHOT_BYTES, MESSAGES } from "@redline/shared";
import { snapdom } from "@zumer/snapdom";

/** A rectangle in CSS pixels of the viewport. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The smallest selection taken as a screenshot (a click without a drag is not one). */
export const MIN_REGION_PX = 8;

/** The rectangle between two pointer positions, kept inside the viewport. */
export function regionBetween(
  start: { x: number; y: number },
  end: { x: number; y: number },
  viewport: { width: number; height: number },
): Region {
  const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), max);
  const [x1, x2] = [clamp(start.x, viewport.width), clamp(end.x, viewport.width)].sort((a, b) => a - b);
  const [y1, y2] = [clamp(start.y, viewport.height), clamp(end.y, viewport.height)].sort((a, b) => a - b);
  return { x: x1!, y: y1!, width: x2! - x1!, height: y2! - y1! };
}

const isExcluded = (element: Element) =>
  element.hasAttribute("data-feedback-exclude") ||
  element.classList.contains("modal__overlay") ||
  element.classList.contains("modal__content");

/** What Chromium paints behind the document: the root's background, else the body's, else white. */
function canvasBackground(): string {
  for (const element of [document.documentElement, document.body]) {
    const colour = getComputedStyle(element).backgroundColor;
    if (colour && colour !== "transparent" && !/rgba\([^)]*,\s*0\)$/.test(colour)) return colour;
  }
  return "#ffffff";
}

const toBlob = (canvas: HTMLCanvasElement, type: string, quality?: number) =>
  new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("The screenshot failed."))),
      type,
      quality,
    ),
  );

const toDataUrl = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error("The screenshot failed."));
    reader.readAsDataURL(blob);
  });

/** Renders the region as it shows now and returns it as a data URL (PNG, or JPEG past 5 MB). */
export async function captureRegion(region: Region): Promise<string> {
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  const viewport = await snapdom.toCanvas(document.documentElement, {
    clip: "viewport",
    dpr,
    backgroundColor: canvasBackground(),
    exclude: [isExcluded],
    excludeMode: "remove",
    placeholders: true,
    fast: "auto",
  });
  const scale = viewport.width / window.innerWidth;
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(region.width * scale));
  canvas.height = Math.max(1, Math.round(region.height * scale));
  canvas
    .getContext("2d")!
    .drawImage(
      viewport,
      Math.round(region.x * scale),
      Math.round(region.y * scale),
      canvas.width,
      canvas.height,
      0,
      0,
      canvas.width,
      canvas.height,
    );
  let blob = await toBlob(canvas, "image/png");
  if (blob.size > MAX_FEEDBACK_SCREENSHOT_BYTES) blob = await toBlob(canvas, "image/jpeg", 0.85);
  if (blob.size > MAX_FEEDBACK_SCREENSHOT_BYTES) throw new Error(MESSAGES.maxFileSize);
  return toDataUrl(blob);
}
