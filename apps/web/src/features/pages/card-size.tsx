/**
 * The size of the page cards (SPEC §9 preview width table): four steps, remembered in local storage
 * under `redline.pageCardSize`. Compact mode is the layout below the mobile breakpoint (979 px), where
 * every width is scaled by 10/12 — it follows the window, there is no separate toggle.
 */
import {
  DEFAULT_PREVIEW_SIZE,
  isPreviewSize,
  MOBILE_LAYOUT_BELOW_PX,
  PREVIEW_SIZES,
  type PreviewSize,
  previewWidth,
} from "@redline/shared";
import { ZoomIn, ZoomOut } from "lucide-react";
import { useCallback, useState, useSyncExternalStore } from "react";

export const CARD_SIZE_STORAGE_KEY = "redline.pageCardSize";
const COMPACT_QUERY = `(max-width: ${MOBILE_LAYOUT_BELOW_PX - 0.02}px)`;

function readSize(): PreviewSize {
  try {
    const stored = Number(localStorage.getItem(CARD_SIZE_STORAGE_KEY));
    return isPreviewSize(stored) ? stored : DEFAULT_PREVIEW_SIZE;
  } catch {
    return DEFAULT_PREVIEW_SIZE;
  }
}

function subscribeCompact(onChange: () => void) {
  const query = window.matchMedia(COMPACT_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

export function useIsCompact(): boolean {
  return useSyncExternalStore(subscribeCompact, () => window.matchMedia(COMPACT_QUERY).matches);
}

/** The chosen step, its card width in pixels, and a setter that remembers the choice. */
export function useCardSize() {
  const [size, setSizeState] = useState<PreviewSize>(readSize);
  const isCompact = useIsCompact();
  const setSize = useCallback((next: PreviewSize) => {
    setSizeState(next);
    try {
      localStorage.setItem(CARD_SIZE_STORAGE_KEY, String(next));
    } catch {
      // Private mode or full storage: the size lasts for this visit only.
    }
  }, []);
  return { size, width: previewWidth(size, isCompact), setSize };
}

export function CardSizeControl({
  size,
  width,
  onChange,
}: {
  size: PreviewSize;
  width: number;
  onChange(size: PreviewSize): void;
}) {
  return (
    <label className="card-size">
      <ZoomOut size={16} aria-hidden />
      <span className="visually-hidden">Card size</span>
      <input
        type="range"
        className="card-size__range"
        min={PREVIEW_SIZES[0]}
        max={PREVIEW_SIZES.at(-1)}
        step={PREVIEW_SIZES[1] - PREVIEW_SIZES[0]}
        value={size}
        aria-valuetext={`${width} px wide`}
        onChange={(event) => {
          const next = Number(event.target.value);
          if (isPreviewSize(next)) onChange(next);
        }}
      />
      <ZoomIn size={16} aria-hidden />
    </label>
  );
}
