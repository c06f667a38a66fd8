/**
 * Keeps the overlay in a snapshot in step with comment mode (stages/snapshot-stage.tsx): the pins to draw,
 * the overlay's mode, whether pins show, the pending pick's marker, and the selected pin scrolled into view
 * once placed (a deep link waits for anchoring).
 */
import {
  type AnchoredStatus,
  type Comment,
  type FrameAnchor,
  type FramePin,
  MAX_FRAME_PINS,
} from "@redline/shared";
import { useEffect, useMemo, useRef } from "react";
import type { OverlayBridge } from "../../lib/use-overlay-bridge.ts";

/**
 * The comments whose pins the overlay draws: all of them up to the overlay's limit (a message with more is
 * refused whole); past it the first ones in the list's order, and the selected comment always, so a pin
 * opened from the list beyond the limit still shows.
 */
export function drawnPins(
  pins: readonly Comment[],
  selectedId: string | null,
  limit = MAX_FRAME_PINS,
): Comment[] {
  if (pins.length <= limit) return [...pins];
  const first = pins.slice(0, limit);
  if (selectedId === null || first.some((comment) => comment.id === selectedId)) return first;
  const selected = pins.find((comment) => comment.id === selectedId);
  return selected ? [...first.slice(0, limit - 1), selected] : first;
}

export function useOverlayPins({
  bridge,
  pins: pinned,
  numbers,
  selectedId,
  mode,
  pinsVisible,
  pending,
  anchored,
}: {
  bridge: OverlayBridge;
  /** The comments whose pins show. */
  pins: readonly Comment[];
  numbers: ReadonlyMap<string, number>;
  selectedId: string | null;
  mode: "comment" | "browse";
  pinsVisible: boolean;
  pending: { anchor: FrameAnchor; dotPosition: { x: number; y: number } } | null;
  anchored: ReadonlyMap<string, AnchoredStatus>;
}): void {
  const { post, generation } = bridge;
  const pinsJson = useMemo(
    () =>
      JSON.stringify(
        drawnPins(pinned, selectedId).map(
          (comment): FramePin => ({
            id: comment.id,
            number: numbers.get(comment.id) ?? 0,
            anchor: comment.anchor,
            dotPosition: comment.dotPosition,
            isResolved: comment.isResolved,
            isSelected: comment.id === selectedId,
          }),
        ),
      ),
    [pinned, numbers, selectedId],
  );
  // Compared by value: the caller builds a new object on every render.
  const pendingJson = JSON.stringify(pending);
  useEffect(() => {
    if (!generation) return;
    post("pins:set", { pins: JSON.parse(pinsJson) as FramePin[] });
  }, [generation, pinsJson, post]);
  useEffect(() => {
    if (generation) post("overlay:mode", { mode });
  }, [generation, mode, post]);
  useEffect(() => {
    if (generation) post("pins:visible", { visible: pinsVisible });
  }, [generation, pinsVisible, post]);
  useEffect(() => {
    if (!generation) return;
    post("pending:set", JSON.parse(pendingJson) as typeof pending);
  }, [generation, pendingJson, post]);

  // Scroll to the selected pin once it is placed (deep links wait for anchoring).
  const focused = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new document needs the focus again
  useEffect(() => {
    focused.current = null;
  }, [generation]);
  useEffect(() => {
    if (!selectedId) {
      focused.current = null;
      return;
    }
    if (focused.current === selectedId) return;
    const status = anchored.get(selectedId);
    if (!generation || !status || status === "orphaned") return;
    post("pin:focus", { id: selectedId });
    focused.current = selectedId;
  });
}
