/** Sizes, timings and limits from SPEC §2 and §9. */
export const SITE_TITLE = "Redline";

export const HEADER_HEIGHT_PX = 55;
export const MODAL_MAX_WIDTH_PX = 580;
export const MODAL_Z_INDEX = 9009;
export const MODAL_CLOSE_MS = 200;
export const CONTENT_MAX_WIDTH_PX = 1280;
export const PANEL_WIDTH_PX = 390;
export const MOBILE_LAYOUT_BELOW_PX = 979;
export const HEADER_TRANSPARENT_AFTER_PX = 100;

/** Snackbar auto-hide durations (§9). */
export const SNACKBAR_MS = {
  default: 5000,
  short: 4000,
  long: 7000,
  team: 7000,
  successFlash: 1000,
  backOnline: 5000,
} as const;

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const AVATAR_SIZE_PX = 500;
export const AVATAR_JPEG_QUALITY = 50;
