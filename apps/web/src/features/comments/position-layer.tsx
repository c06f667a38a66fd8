/**
 * Pins on an image or a PDF page: a comment's point is a fraction of the picture, so it stays on the
 * same spot at any size. In comment mode the picture is one big button — a click (or Enter, which
 * pins the centre) places a new comment there.
 *
 * Many pins (a version with thousands of comments) would stall the page as thousands of buttons: past
 * MANY_PINS, only the pins in and near the visible part of the picture are buttons (at most PIN_BUDGET,
 * the selected one always), and the others are dots on one canvas; a click on a dot opens its comment.
 * Every comment stays reachable by keyboard through the comments panel.
 */
import { type ReactNode, type RefObject, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";

export interface PositionPin {
  id: string;
  number: number;
  x: number;
  y: number;
  isResolved: boolean;
  isSelected: boolean;
}

/** From this many pins on, only those near the view are buttons. */
export const MANY_PINS = 300;
/** At most this many pin buttons at a time (the rest of those in view are dots). */
export const PIN_BUDGET = 300;
const DOT_RADIUS = 7;

export function PositionLayer({
  children,
  pins,
  pending,
  label,
  onPick,
  onSelect,
}: {
  children: ReactNode;
  pins: PositionPin[];
  pending: { x: number; y: number } | null;
  /** What the pick button says, e.g. 'Add a comment on page 2'. */
  label: string;
  /** Absent: the picture cannot be commented on (viewers, preview). */
  onPick?: (point: { x: number; y: number }) => void;
  onSelect(id: string): void;
}) {
  const layer = useRef<HTMLDivElement | null>(null);
  const isMany = pins.length >= MANY_PINS;
  const band = useVisibleBand(layer, isMany);
  // Until the view is measured, many pins are all dots: thousands of buttons mounted only to be removed
  // again would cost seconds of layout.
  const { buttons, dots } = useMemo(
    () => splitPins(pins, isMany ? (band ?? NOWHERE) : null),
    [pins, isMany, band],
  );
  const canvas = useDots(layer, dots);

  return (
    <div ref={layer} className="position-layer">
      {children}
      {isMany ? <canvas ref={canvas} className="position-layer__dots" aria-hidden /> : null}
      {onPick ? (
        <button
          type="button"
          className="position-layer__pick"
          aria-label={label}
          onClick={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            // A keyboard press has no pointer position: pin the centre.
            const isPointer = event.detail > 0 && box.width > 0 && box.height > 0;
            const point = {
              x: isPointer ? clamp((event.clientX - box.left) / box.width) : 0.5,
              y: isPointer ? clamp((event.clientY - box.top) / box.height) : 0.5,
            };
            const dot = isPointer ? dotAt(dots, point, box) : undefined;
            if (dot) onSelect(dot.id);
            else onPick(point);
          }}
        />
      ) : null}
      {buttons.map((pin) => (
        <button
          key={pin.id}
          type="button"
          className={`comment-pin${pin.isResolved ? " comment-pin--resolved" : ""}${pin.isSelected ? " comment-pin--selected" : ""}`}
          style={{ left: `${pin.x * 100}%`, top: `${pin.y * 100}%` }}
          aria-label={`Comment ${pin.number}${pin.isResolved ? " (resolved)" : ""}`}
          aria-pressed={pin.isSelected}
          data-comment-id={pin.id}
          onClick={() => onSelect(pin.id)}
        >
          {pin.number}
        </button>
      ))}
      {pending ? (
        <span
          className="comment-pin comment-pin--pending"
          style={{ left: `${pending.x * 100}%`, top: `${pending.y * 100}%` }}
          aria-hidden
        >
          +
        </span>
      ) : null}
    </div>
  );
}

const clamp = (value: number) => Math.min(1, Math.max(0, value));

/** The part of the picture (fractions of its height) worth drawing as buttons: the view and half a view around it. */
interface Band {
  top: number;
  bottom: number;
}

const NOWHERE: Band = { top: 1, bottom: 0 };

/** Pins as buttons (the selected one, then those in the band, up to the budget) and the rest as dots. */
export function splitPins(
  pins: PositionPin[],
  band: Band | null,
): { buttons: PositionPin[]; dots: PositionPin[] } {
  if (!band) return { buttons: pins, dots: [] };
  const buttons: PositionPin[] = [];
  const dots: PositionPin[] = [];
  const selected = pins.find((pin) => pin.isSelected);
  if (selected) buttons.push(selected);
  for (const pin of pins) {
    if (pin === selected) continue;
    if (buttons.length < PIN_BUDGET && pin.y >= band.top && pin.y <= band.bottom) buttons.push(pin);
    else dots.push(pin);
  }
  return { buttons, dots };
}

/**
 * The band of the layer in and near the viewport, in steps of half a viewport so that scrolling
 * re-renders the pins only now and then; null while it is not wanted or cannot be measured.
 */
function useVisibleBand(layer: RefObject<HTMLDivElement | null>, isWanted: boolean): Band | null {
  const [band, setBand] = useState<Band | null>(null);
  useLayoutEffect(() => {
    if (!isWanted) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const element = layer.current;
      if (!element) return;
      const box = element.getBoundingClientRect();
      const view = window.innerHeight;
      if (box.height <= 0 || view <= 0) return setBand(null);
      const step = view / 2;
      const start = Math.floor(-box.top / step) * step - step;
      const next = { top: start / box.height, bottom: (start + view + 2 * step) / box.height };
      setBand((current) =>
        current && current.top === next.top && current.bottom === next.bottom ? current : next,
      );
    };
    const request = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    // Any scroller may move the picture: listened to in the capture phase, measured once per frame.
    document.addEventListener("scroll", request, { capture: true, passive: true });
    window.addEventListener("resize", request);
    const resized = typeof ResizeObserver === "function" ? new ResizeObserver(request) : null;
    if (layer.current) resized?.observe(layer.current);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener("scroll", request, { capture: true });
      window.removeEventListener("resize", request);
      resized?.disconnect();
    };
  }, [layer, isWanted]);
  return isWanted ? band : null;
}

/** Draws `dots` on the layer's canvas (redrawn when they or the layer's size change); returns the canvas ref. */
function useDots(layer: RefObject<HTMLDivElement | null>, dots: PositionPin[]) {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const hasDots = dots.length > 0;
  useEffect(() => {
    const element = layer.current;
    if (!element || !hasDots || typeof ResizeObserver !== "function") return;
    const observer = new ResizeObserver(() => {
      const { width, height } = element.getBoundingClientRect();
      setSize((current) =>
        current.width === width && current.height === height ? current : { width, height },
      );
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [layer, hasDots]);
  useEffect(() => {
    const element = canvas.current;
    const context = element?.getContext?.("2d");
    if (!element || !context) return;
    const ratio = window.devicePixelRatio || 1;
    // Setting the size clears the canvas.
    element.width = Math.round(size.width * ratio);
    element.height = Math.round(size.height * ratio);
    if (dots.length === 0 || size.width === 0) return;
    context.scale(ratio, ratio);
    const style = getComputedStyle(element);
    const colours = {
      open: style.getPropertyValue("--color-accent").trim() || "#e5484d",
      resolved: style.getPropertyValue("--color-success").trim() || "#30a46c",
    };
    for (const isResolved of [true, false]) {
      context.beginPath();
      for (const dot of dots) {
        if (dot.isResolved !== isResolved) continue;
        const [x, y] = [dot.x * size.width, dot.y * size.height];
        context.moveTo(x + DOT_RADIUS, y);
        context.arc(x, y, DOT_RADIUS, 0, Math.PI * 2);
      }
      context.fillStyle = isResolved ? colours.resolved : colours.open;
      context.fill();
    }
  }, [dots, size]);
  return canvas;
}

/** The dot under a click (the topmost: the last drawn), if any. */
function dotAt(
  dots: PositionPin[],
  point: { x: number; y: number },
  box: { width: number; height: number },
): PositionPin | undefined {
  for (let index = dots.length - 1; index >= 0; index--) {
    const dot = dots[index]!;
    const [dx, dy] = [(dot.x - point.x) * box.width, (dot.y - point.y) * box.height];
    if (dx * dx + dy * dy <= DOT_RADIUS * DOT_RADIUS) return dot;
  }
  return undefined;
}
