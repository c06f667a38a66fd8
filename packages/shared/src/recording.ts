/**
 * Recording the screen in the browser (issue #33), for the web app's recorder and the widget's record
 * chunk alike. Nothing here imports zod: the widget bundles what it uses of this module and no more.
 */

/** What MediaRecorder records in, best first: MP4 (H.264) where the browser records it, else WebM (VP9, then VP8). */
const RECORDING_FORMATS = [
  "video/mp4;codecs=avc1,opus",
  "video/mp4;codecs=avc1,mp4a.40.2",
  "video/webm;codecs=vp9,opus",
  "video/webm;codecs=vp8,opus",
  "video/webm",
];

/** The best of `RECORDING_FORMATS` the browser records (`MediaRecorder.isTypeSupported`; "" lets it choose). */
export function bestRecordingFormat(isSupported: (type: string) => boolean): string {
  return RECORDING_FORMATS.find(isSupported) ?? "";
}

/** About 2.2 MB a minute with the voice: screens are mostly still, so this stays sharp. */
export const VIDEO_BITS_PER_SECOND = 260_000;
export const AUDIO_BITS_PER_SECOND = 32_000;

/** How long a new report's video may be uploaded after it was sent (the intake's upload token). */
export const WIDGET_VIDEO_TOKEN_MINUTES = 30;

/** The header the widget sends its report's upload token in. */
export const WIDGET_VIDEO_TOKEN_HEADER = "x-redline-upload-token";

/**
 * Where the widget's recorder asks how long a recording may be before it starts (the project owner's plan,
 * seconds; -1 unlimited, 0 none): `GET {api}/api/widget/video-limit?key={widget key}` from an allowed
 * origin — the report, and so its upload token, comes only after the recording.
 */
export const WIDGET_VIDEO_LIMIT_PATH = "/api/widget/video-limit";
