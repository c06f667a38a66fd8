/**
 * SPEC §9 "Preview width table": the width of a page preview card on the project page. The card-size
 * control offers four steps; any other value falls back to the default width.
 */
export const PREVIEW_SIZES = [10, 15, 20, 25] as const;
export type PreviewSize = (typeof PREVIEW_SIZES)[number];

const PREVIEW_WIDTHS: Record<PreviewSize, number> = { 10: 365, 15: 490, 20: 615, 25: 740 };

export const DEFAULT_PREVIEW_WIDTH_PX = 240;
/** The step a new user starts on. */
export const DEFAULT_PREVIEW_SIZE: PreviewSize = 10;
/** Compact mode (the layout below the mobile breakpoint) scales every width by 10/12. */
export const COMPACT_PREVIEW_SCALE = 10 / 12;

export function isPreviewSize(value: unknown): value is PreviewSize {
  return PREVIEW_SIZES.includes(value as PreviewSize);
}

/** Card width in whole pixels: 10, 15, 20, 25 → 365, 490, 615, 740 (else 240), ×10/12 when compact. */
export function previewWidth(size: number, compact: boolean): number {
  const width = isPreviewSize(size) ? PREVIEW_WIDTHS[size] : DEFAULT_PREVIEW_WIDTH_PX;
  return compact ? Math.round(width * COMPACT_PREVIEW_SCALE) : width;
}
