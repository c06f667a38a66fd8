/**
 * The drag-to-select overlay of the feedback dialog (SPEC §2 'Click & drag to take a screenshot'): it
 * covers the app (the dialog is hidden meanwhile), the user drags a rectangle, and the app under it is
 * rendered as a screenshot once the overlay is gone. Escape or the Cancel button leaves without one.
 */
import { FEEDBACK_TEXTS } from "@redline/shared";
import { type PointerEvent, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { MIN_REGION_PX, type Region, regionBetween } from "./capture-region.ts";

export function ScreenshotSelector({
  onSelect,
  onCancel,
}: {
  /** The dragged region, called after the overlay has left the screen. */
  onSelect(region: Region): void;
  onCancel(): void;
}) {
  const start = useRef<{ x: number; y: number } | null>(null);
  const [region, setRegion] = useState<Region | null>(null);
  const [selected, setSelected] = useState<Region | null>(null);

  useEffect(() => {
    const handleKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onCancel();
    };
    window.addEventListener("keydown", handleKey);
    return () => window.removeEventListener("keydown", handleKey);
  }, [onCancel]);

  // Once the overlay is off the screen (two frames: React removed it, the browser painted without it).
  useEffect(() => {
    if (!selected) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => onSelect(selected));
    });
    return () => cancelAnimationFrame(frame);
  }, [selected, onSelect]);

  const viewport = () => ({ width: window.innerWidth, height: window.innerHeight });
  const handlePointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    start.current = { x: event.clientX, y: event.clientY };
    setRegion({ x: event.clientX, y: event.clientY, width: 0, height: 0 });
  };
  const handlePointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (start.current)
      setRegion(regionBetween(start.current, { x: event.clientX, y: event.clientY }, viewport()));
  };
  const handlePointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!start.current) return;
    const dragged = regionBetween(start.current, { x: event.clientX, y: event.clientY }, viewport());
    start.current = null;
    if (dragged.width < MIN_REGION_PX || dragged.height < MIN_REGION_PX) {
      setRegion(null);
      return;
    }
    setSelected(dragged);
  };

  if (selected) return null;
  return createPortal(
    <div
      className={region ? "shot-select shot-select--dragging" : "shot-select"}
      data-feedback-exclude=""
      data-testid="screenshot-selector"
      role="application"
      aria-label={FEEDBACK_TEXTS.dragHint}
      onPointerDown={handlePointerDown}
      onPointerMove={handlePointerMove}
      onPointerUp={handlePointerUp}
    >
      {region ? (
        <div
          className="shot-select__region"
          style={{ left: region.x, top: region.y, width: region.width, height: region.height }}
        />
      ) : null}
      <div className="shot-select__hint" onPointerDown={(event) => event.stopPropagation()}>
        <span>{FEEDBACK_TEXTS.dragHint}</span>
        <button type="button" className="btn btn--ghost shot-select__cancel" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>,
    document.body,
  );
}
