/**
 * Recording a video comment in the browser: the screen (a tab, a window or the whole screen, as the
 * browser's picker offers), the microphone and an optional camera bubble drawn over the screen's corner,
 * recorded by MediaRecorder in the best format the browser offers, at a bitrate that keeps a minute of
 * 1080p screen under 2.5 MB.
 */

import { bestRecordingFormat } from "@redline/shared";

// The formats and bitrates are the widget's recorder's too (packages/widget record.ts).
export { AUDIO_BITS_PER_SECOND, VIDEO_BITS_PER_SECOND } from "@redline/shared";

/** Best first: MP4 (H.264) where the browser records it, else WebM (VP9, then VP8). */
export function bestFormat(
  isSupported: (type: string) => boolean = (type) => MediaRecorder.isTypeSupported(type),
) {
  return bestRecordingFormat(isSupported);
}

export interface Capture {
  /** What MediaRecorder records: the screen (or the composite with the camera) and the microphone. */
  stream: MediaStream;
  /** Stops every device and the drawing. */
  stop(): void;
  /** Ends when the person stops sharing from the browser's own bar. */
  onEnded(listener: () => void): void;
}

/** Asks for the screen, the microphone and (when asked) the camera, and composes what is recorded. */
export async function startCapture(options: { camera: boolean }): Promise<Capture> {
  const screen = await navigator.mediaDevices.getDisplayMedia({
    video: { frameRate: 30 },
    audio: false,
    // Chromium: offer this tab first, and let it be chosen.
    preferCurrentTab: true,
    selfBrowserSurface: "include",
  } as DisplayMediaStreamOptions);
  let devices: MediaStream;
  try {
    devices = await navigator.mediaDevices.getUserMedia({
      audio: true,
      video: options.camera ? { width: 320, height: 320 } : false,
    });
  } catch (error) {
    for (const track of screen.getTracks()) track.stop();
    throw error;
  }
  const screenTrack = screen.getVideoTracks()[0]!;
  const cameraTrack = devices.getVideoTracks()[0];
  const tracks: MediaStreamTrack[] = [...devices.getAudioTracks()];
  let stopDrawing = () => {};
  if (cameraTrack) {
    const composed = compose(screen, new MediaStream([cameraTrack]));
    tracks.unshift(composed.track);
    stopDrawing = composed.stop;
  } else {
    tracks.unshift(screenTrack);
  }
  return {
    stream: new MediaStream(tracks),
    stop() {
      stopDrawing();
      for (const track of [...screen.getTracks(), ...devices.getTracks()]) track.stop();
    },
    onEnded(listener) {
      screenTrack.addEventListener("ended", listener);
    },
  };
}

/** The screen with the camera as a round bubble at its bottom left, drawn on a canvas 30 times a second. */
function compose(screen: MediaStream, camera: MediaStream): { track: MediaStreamTrack; stop(): void } {
  const screenVideo = playing(screen);
  const cameraVideo = playing(camera);
  const canvas = document.createElement("canvas");
  const settings = screen.getVideoTracks()[0]!.getSettings();
  canvas.width = settings.width ?? 1280;
  canvas.height = settings.height ?? 720;
  const context = canvas.getContext("2d")!;
  const draw = () => {
    if (
      screenVideo.videoWidth &&
      (canvas.width !== screenVideo.videoWidth || canvas.height !== screenVideo.videoHeight)
    ) {
      canvas.width = screenVideo.videoWidth;
      canvas.height = screenVideo.videoHeight;
    }
    context.drawImage(screenVideo, 0, 0, canvas.width, canvas.height);
    const size = Math.round(Math.min(canvas.width, canvas.height) * 0.22);
    const x = Math.round(size * 0.15);
    const y = canvas.height - size - x;
    context.save();
    context.beginPath();
    context.arc(x + size / 2, y + size / 2, size / 2, 0, Math.PI * 2);
    context.clip();
    const side = Math.min(cameraVideo.videoWidth || size, cameraVideo.videoHeight || size);
    context.drawImage(
      cameraVideo,
      ((cameraVideo.videoWidth || side) - side) / 2,
      ((cameraVideo.videoHeight || side) - side) / 2,
      side,
      side,
      x,
      y,
      size,
      size,
    );
    context.restore();
  };
  // A timer, not requestAnimationFrame: a recording goes on while its tab is hidden.
  const timer = window.setInterval(draw, 1000 / 30);
  const track = canvas.captureStream(30).getVideoTracks()[0]!;
  return {
    track,
    stop() {
      window.clearInterval(timer);
      track.stop();
    },
  };
}

function playing(stream: MediaStream): HTMLVideoElement {
  const video = document.createElement("video");
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  void video.play().catch(() => undefined);
  return video;
}
