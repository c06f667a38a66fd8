/**
 * The video modal (SPEC §2): record the screen with the voice and an optional camera bubble — a 3-2-1
 * countdown, pause and resume, the mm:ss timer against the plan's longest video, stop — then preview,
 * trim the ends, record again, or attach: the recording is uploaded resumably (tus) with its progress,
 * retried when the connection drops, and handed to the comment as its finished upload.
 */
import { formatVideoTime, UNLIMITED, VIDEO_MESSAGES, type VideoInput } from "@redline/shared";
import { useQuery } from "@tanstack/react-query";
import { type RefObject, useEffect, useRef, useState } from "react";
import * as tus from "tus-js-client";
import { api } from "../../lib/api.ts";
import { Modal } from "../modal.tsx";
import { showUpgradePrompt } from "../upgrade-prompt-store.ts";
import {
  AUDIO_BITS_PER_SECOND,
  bestFormat,
  type Capture,
  startCapture,
  VIDEO_BITS_PER_SECOND,
} from "./recorder.ts";
import "./video.css";

/** A recording attached to a comment: its finished upload, where to cut it, and how long it is. */
export type RecordedVideo = VideoInput & { duration: number };

type Step =
  | { kind: "ready" }
  | { kind: "countdown"; count: number }
  | { kind: "recording"; paused: boolean }
  | { kind: "preview" }
  | { kind: "uploading"; percent: number; retrying: boolean }
  | { kind: "error"; message: string };

const RETRY_DELAYS = [0, 1000, 2000, 4000, 8000, 15_000, 30_000];

/**
 * Where a recording is uploaded (tus) and the plan's longest video is read: a project's uploads for its
 * people, or the same under its public link for a guest, who names themselves with `headers`.
 */
export interface VideoTarget {
  /** The uploads' path: `{path}` creates one, `{path}/limit` tells the longest video. */
  path: string;
  headers?: Record<string, string>;
}

/** A project's people upload to the project. */
export const projectVideoTarget = (projectId: string): VideoTarget => ({
  path: `/api/projects/${encodeURIComponent(projectId)}/videos`,
});

/** A guest of the project's public link uploads through the link, as the identity they comment with. */
export const linkGuestVideoTarget = (projectId: string, identity: string): VideoTarget => ({
  path: `/api/share/${encodeURIComponent(projectId)}/videos`,
  headers: { "x-redline-guest": identity },
});

/** Whoever may attach to a ticket records on it. */
export const ticketVideoTarget = (ticketId: string): VideoTarget => ({
  path: `/api/tickets/${encodeURIComponent(ticketId)}/videos`,
});

export function videoLimitKey(target: VideoTarget) {
  return ["video-limit", target.path] as const;
}

export function VideoRecorderModal({
  open,
  target,
  onOpenChange,
  onAttach,
}: {
  open: boolean;
  target: VideoTarget;
  onOpenChange(open: boolean): void;
  onAttach(video: RecordedVideo): void;
}) {
  const limit = useQuery({
    queryKey: videoLimitKey(target),
    queryFn: () =>
      api<{ data: { limitSeconds: number } }>(`${target.path}/limit`, { headers: target.headers }),
    enabled: open,
  });
  const limitSeconds = limit.data?.data.limitSeconds ?? UNLIMITED;
  const [step, setStep] = useState<Step>({ kind: "ready" });
  const [camera, setCamera] = useState(true);
  const [elapsed, setElapsed] = useState(0);
  const [recording, setRecording] = useState<{ blob: Blob; url: string; duration: number } | null>(null);
  const [trim, setTrim] = useState({ start: 0, end: 0 });
  const capture = useRef<Capture | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const clock = useRef({ startedAt: 0, pausedFor: 0, pausedAt: 0 });
  const upload = useRef<tus.Upload | null>(null);

  const release = () => releaseDevices(capture, recorder);
  useEffect(() => {
    if (open) return;
    releaseDevices(capture, recorder);
    void upload.current?.abort();
    setStep({ kind: "ready" });
    setRecording((current) => {
      if (current) URL.revokeObjectURL(current.url);
      return null;
    });
  }, [open]);
  useEffect(() => () => releaseDevices(capture, recorder), []);

  const seconds = () => {
    const { startedAt, pausedFor, pausedAt } = clock.current;
    return (Date.now() - startedAt - pausedFor - (pausedAt ? Date.now() - pausedAt : 0)) / 1000;
  };

  // The timer, and the stop at the plan's limit.
  useEffect(() => {
    if (step.kind !== "recording" || step.paused) return;
    const timer = window.setInterval(() => {
      const now = seconds();
      setElapsed(now);
      if (limitSeconds > 0 && now >= limitSeconds) stop();
    }, 200);
    return () => window.clearInterval(timer);
  });

  const stop = () => {
    if (recorder.current && recorder.current.state !== "inactive") recorder.current.stop();
  };

  const start = async () => {
    setElapsed(0);
    try {
      capture.current = await startCapture({ camera });
    } catch {
      setStep({
        kind: "error",
        message: "Recording needs your screen and microphone. Allow them in the browser and try again.",
      });
      return;
    }
    capture.current.onEnded(stop);
    for (const count of [3, 2, 1]) {
      setStep({ kind: "countdown", count });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (!capture.current) return;
    }
    const mimeType = bestFormat();
    const media = new MediaRecorder(capture.current.stream, {
      ...(mimeType && { mimeType }),
      videoBitsPerSecond: VIDEO_BITS_PER_SECOND,
      audioBitsPerSecond: AUDIO_BITS_PER_SECOND,
    });
    const chunks: Blob[] = [];
    media.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    media.onstop = () => {
      const duration = Math.max(0.1, seconds());
      release();
      const blob = new Blob(chunks, { type: media.mimeType || "video/webm" });
      setRecording({ blob, url: URL.createObjectURL(blob), duration });
      setTrim({ start: 0, end: duration });
      setStep({ kind: "preview" });
    };
    recorder.current = media;
    clock.current = { startedAt: Date.now(), pausedFor: 0, pausedAt: 0 };
    media.start(1000);
    setStep({ kind: "recording", paused: false });
  };

  const togglePause = () => {
    const media = recorder.current;
    if (!media) return;
    if (media.state === "recording") {
      media.pause();
      clock.current.pausedAt = Date.now();
      setStep({ kind: "recording", paused: true });
    } else if (media.state === "paused") {
      media.resume();
      clock.current.pausedFor += Date.now() - clock.current.pausedAt;
      clock.current.pausedAt = 0;
      setStep({ kind: "recording", paused: false });
    }
  };

  const again = () => {
    if (recording) URL.revokeObjectURL(recording.url);
    setRecording(null);
    setStep({ kind: "ready" });
  };

  const attach = () => {
    if (!recording) return;
    const trimmed = trim.start > 0.05 || trim.end < recording.duration - 0.05;
    setStep({ kind: "uploading", percent: 0, retrying: false });
    const sending = new tus.Upload(recording.blob, {
      endpoint: target.path,
      headers: target.headers ?? {},
      retryDelays: RETRY_DELAYS,
      chunkSize: 1024 * 1024,
      metadata: { filetype: recording.blob.type },
      storeFingerprintForResuming: false,
      onProgress: (sent, total) =>
        setStep({
          kind: "uploading",
          percent: total ? Math.floor((sent / total) * 100) : 0,
          retrying: false,
        }),
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        if (status >= 400 && status < 500 && status !== 409 && status !== 423) return false;
        setStep((current) => (current.kind === "uploading" ? { ...current, retrying: true } : current));
        return true;
      },
      onError: (error) => {
        const response = "originalResponse" in error ? error.originalResponse : null;
        let message = "The video could not be uploaded. Check your connection and try again.";
        try {
          const body = JSON.parse(response?.getBody() ?? "") as { message?: string };
          if (body.message) message = body.message;
        } catch {}
        if (response?.getStatus() === 402)
          showUpgradePrompt({ title: "Upgrade your plan", description: message });
        setStep({ kind: "error", message });
      },
      onSuccess: () => {
        const id = sending.url?.split("/").at(-1) ?? "";
        onAttach({
          upload: id,
          ...(trimmed && { trimStart: round(trim.start), trimEnd: round(trim.end) }),
          duration: round(trim.end - trim.start),
        });
        onOpenChange(false);
      },
    });
    upload.current = sending;
    sending.start();
  };

  const limitText = limitSeconds > 0 ? formatVideoTime(limitSeconds) : null;
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Record a video">
      <div className="recorder">
        {limit.data && limitSeconds === 0 ? (
          <p className="recorder__note">{VIDEO_MESSAGES.notIncluded}</p>
        ) : step.kind === "ready" ? (
          <>
            <p className="recorder__note">
              Record your screen, a window or this tab with your voice.
              {limitText ? ` Videos can be up to ${limitText} long on this project's plan.` : ""}
            </p>
            <label className="recorder__option">
              <input type="checkbox" checked={camera} onChange={(event) => setCamera(event.target.checked)} />{" "}
              Show my camera in a bubble
            </label>
            <div className="recorder__actions">
              <button
                type="button"
                className="btn btn--primary"
                onClick={() => void start()}
                disabled={!limit.data}
              >
                Start recording
              </button>
            </div>
          </>
        ) : step.kind === "countdown" ? (
          <p className="recorder__countdown" aria-live="assertive">
            {step.count}
          </p>
        ) : step.kind === "recording" ? (
          <>
            <p className="recorder__timer" role="timer" aria-live="off" aria-label="Recording time">
              <span className={step.paused ? "recorder__dot is-paused" : "recorder__dot"} aria-hidden />
              {formatVideoTime(elapsed)}
              {limitText ? <span className="recorder__limit"> / {limitText}</span> : null}
            </p>
            {limitSeconds > 0 ? (
              <p className="recorder__note">{formatVideoTime(Math.max(0, limitSeconds - elapsed))} left</p>
            ) : null}
            <div className="recorder__actions">
              <button type="button" className="btn" onClick={togglePause}>
                {step.paused ? "Resume" : "Pause"}
              </button>
              <button type="button" className="btn btn--primary" onClick={stop}>
                Stop
              </button>
            </div>
          </>
        ) : step.kind === "preview" && recording ? (
          <>
            {/* biome-ignore lint/a11y/useMediaCaption: a screen recording with the reviewer's own voice */}
            <video className="recorder__preview" src={recording.url} controls aria-label="Recorded video" />
            <fieldset className="recorder__trim">
              <legend>Trim</legend>
              <label>
                Start {formatVideoTime(trim.start)}
                <input
                  type="range"
                  min={0}
                  max={recording.duration}
                  step={0.1}
                  value={trim.start}
                  aria-label="Trim start"
                  onChange={(event) =>
                    setTrim((current) => ({
                      ...current,
                      start: Math.min(Number(event.target.value), current.end - 0.5),
                    }))
                  }
                />
              </label>
              <label>
                End {formatVideoTime(trim.end)}
                <input
                  type="range"
                  min={0}
                  max={recording.duration}
                  step={0.1}
                  value={trim.end}
                  aria-label="Trim end"
                  onChange={(event) =>
                    setTrim((current) => ({
                      ...current,
                      end: Math.max(Number(event.target.value), current.start + 0.5),
                    }))
                  }
                />
              </label>
            </fieldset>
            <p className="recorder__note">Video length {formatVideoTime(trim.end - trim.start)}</p>
            <div className="recorder__actions">
              <button type="button" className="btn" onClick={again}>
                Record again
              </button>
              <button type="button" className="btn btn--primary" onClick={attach}>
                Attach video
              </button>
            </div>
          </>
        ) : step.kind === "uploading" ? (
          <>
            <progress
              className="recorder__progress"
              max={100}
              value={step.percent}
              aria-label="Upload progress"
            />
            <p className="recorder__note" aria-live="polite">
              {step.retrying ? "Connection lost. Trying again..." : `Uploading ${step.percent}%`}
            </p>
          </>
        ) : step.kind === "error" ? (
          <>
            <p className="form-error" role="alert">
              {step.message}
            </p>
            <div className="recorder__actions">
              <button
                type="button"
                className="btn"
                onClick={() => (recording ? setStep({ kind: "preview" }) : again())}
              >
                Try again
              </button>
            </div>
          </>
        ) : null}
      </div>
    </Modal>
  );
}

/** Stops the screen, microphone and camera (and forgets the recorder). */
function releaseDevices(capture: RefObject<Capture | null>, recorder: RefObject<MediaRecorder | null>) {
  capture.current?.stop();
  capture.current = null;
  recorder.current = null;
}

const round = (value: number) => Math.round(value * 10) / 10;
