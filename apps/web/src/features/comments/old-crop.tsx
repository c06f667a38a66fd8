/**
 * Where an orphaned comment used to be: its element cut out of the previous version's full-page
 * screenshot (taken at desktop width), from the box its anchor recorded. Nothing when the comment was
 * made at another width or the screenshot is missing.
 */
import type { Comment } from "@redline/shared";
import { useVersionView } from "../viewer/version-queries.ts";

const CROP_WIDTH = 280;
const MAX_CROP_HEIGHT = 160;
const SCREENSHOT_WIDTH = 1280;

export function OldCrop({ comment }: { comment: Comment }) {
  const rect = readRect(comment.anchor?.fingerprint.rect);
  const usable =
    rect !== null && comment.copiedFromVersion !== null && comment.deviceWidth === SCREENSHOT_WIDTH;
  const { data: view } = useVersionView(usable ? (comment.copiedFromVersion ?? "") : "", undefined, usable);
  if (!usable || !view?.screenshotUrl || !rect) return null;
  // Some room around the element, scaled to the card.
  const margin = 16;
  const box = {
    x: Math.max(0, rect.x - margin),
    y: Math.max(0, rect.y - margin),
    width: rect.width + 2 * margin,
    height: rect.height + 2 * margin,
  };
  const scale = Math.min(1, CROP_WIDTH / box.width, MAX_CROP_HEIGHT / box.height);
  return (
    <div
      className="old-crop"
      role="img"
      aria-label="Where this comment was on the previous version"
      style={{
        width: box.width * scale,
        height: box.height * scale,
        backgroundImage: `url("${view.screenshotUrl}")`,
        backgroundPosition: `${-box.x * scale}px ${-box.y * scale}px`,
        backgroundSize: `${SCREENSHOT_WIDTH * scale}px auto`,
      }}
    />
  );
}

function readRect(value: unknown): { x: number; y: number; width: number; height: number } | null {
  if (!value || typeof value !== "object") return null;
  const { x, y, width, height } = value as Record<string, unknown>;
  if ([x, y, width, height].every((part) => typeof part === "number" && Number.isFinite(part)))
    return { x, y, width, height } as { x: number; y: number; width: number; height: number };
  return null;
}
