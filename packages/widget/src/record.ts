/**
 * The record chunk (issue #33), loaded only when the reporter presses "Record screen": asks for the screen
 * (this tab offered first) and, meanwhile, how long the project owner's plan lets a recording be
 * (`WIDGET_VIDEO_LIMIT_PATH`, by the widget key), records it with MediaRecorder in the best format the
 * browser has (the web app's list, @redline/shared) under a small bar with an mm:ss timer, the time left
 * on the plan and Stop — stopping by itself when none is left, as the app's recorder does — and — once the report is sent —
 * uploads the recording with the report's token (tus: create, then the bytes with progress, resumed from
 * what arrived after a failure) and names it, so it becomes the report's video on the board.
 */
import {
  AUDIO_BITS_PER_SECOND,
  bestRecordingFormat,
  VIDEO_BITS_PER_SECOND,
  WIDGET_VIDEO_LIMIT_PATH,
  WIDGET_VIDEO_TOKEN_HEADER,
} from "@redline/shared";
import { h, mmss } from "./dom.ts";
import type { Recording, VideoGrant } from "./types.ts";

const BAR_CSS = `.recbar{position:fixed;left:50%;bottom:16px;transform:translateX(-50%);z-index:2147483647;display:flex;align-items:center;gap:10px;
padding:8px 12px;border-radius:24px;background:#1f2328;color:#fff;font:600 13px/1.2 system-ui,-apple-system,"Segoe UI",sans-serif;box-shadow:0 2px 10px rgba(0,0,0,.3)}
.recbar .dot{width:10px;height:10px;border-radius:50%;background:#e5383b}
.recbar time,.recbar .left{font-variant-numeric:tabular-nums}.recbar .left{font-weight:400;opacity:.8}`;

/** No limit is known (plans off, or the question went unanswered: the server still measures the video). */
const UNLIMITED = -1;

/**
 * The longest recording the project owner's plan allows, in seconds (-1: no limit known; 0: none). A
 * failed question is no reason not to record: the server measures the video when it is attached.
 */
export async function recordingLimit(api: string, key: string): Promise<number> {
  try {
    const answer = await fetch(`${api}${WIDGET_VIDEO_LIMIT_PATH}?key=${encodeURIComponent(key)}`, {
      credentials: "omit",
    });
    if (!answer.ok) return UNLIMITED;
    const limit = ((await answer.json()) as { data?: { limitSeconds?: unknown } }).data?.limitSeconds;
    return typeof limit === "number" && Number.isInteger(limit) && limit >= UNLIMITED ? limit : UNLIMITED;
  } catch {
    return UNLIMITED;
  }
}

/** Why recording did not start, in plain words. */
export class RecordError extends Error {}

/**
 * Asks for the screen and records until Stop (the bar's, or the browser's own "Stop sharing"), or until
 * the plan's limit is reached. Resolves with the recording, or null when the person closed the browser's
 * picker; throws a RecordError otherwise (the plan takes no recordings, the browser cannot record).
 */
export async function recordScreen(root: ShadowRoot, api: string, key: string): Promise<Recording | null> {
  // Asked while the browser's picker is open: the picker needs the click's activation, not a wait.
  const limitAnswer = recordingLimit(api, key);
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getDisplayMedia({
      video: { frameRate: 30 },
      audio: false,
      // Chromium: offer this tab first, and let it be chosen.
      preferCurrentTab: true,
      selfBrowserSurface: "include",
    } as DisplayMediaStreamOptions);
  } catch (error) {
    if ((error as DOMException)?.name === "NotAllowedError") return null;
    throw new RecordError("Your browser could not share the screen, so nothing was recorded.");
  }
  const limit = await limitAnswer;
  if (limit === 0) {
    for (const track of stream.getTracks()) track.stop();
    throw new RecordError("This project's plan does not take screen recordings.");
  }
  const mimeType = bestRecordingFormat((type) => MediaRecorder.isTypeSupported(type));
  let recorder: MediaRecorder;
  try {
    recorder = new MediaRecorder(stream, {
      ...(mimeType && { mimeType }),
      videoBitsPerSecond: VIDEO_BITS_PER_SECOND,
      audioBitsPerSecond: AUDIO_BITS_PER_SECOND,
    });
  } catch {
    for (const track of stream.getTracks()) track.stop();
    throw new RecordError("Your browser cannot record the screen.");
  }
  const parts: Blob[] = [];
  recorder.addEventListener("dataavailable", (event) => {
    if (event.data.size > 0) parts.push(event.data);
  });

  const timer = h("time", {}, "00:00");
  // The plan's time left, as the app's recorder shows it; it stops there.
  const left = limit > 0 ? h("span", { className: "left" }, `${mmss(limit)} left`) : null;
  const stop = h("button", { type: "button" }, "Stop");
  const bar = h(
    "div",
    { className: "recbar", role: "group", "aria-label": "Recording the screen" },
    h("style", {}, BAR_CSS),
    h("span", { className: "dot", "aria-hidden": "true" }),
    h("span", {}, "Recording"),
    timer,
    left,
    stop,
  );
  root.append(bar);
  stop.focus();
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const tick = setInterval(() => {
    const now = elapsed();
    timer.textContent = mmss(now);
    if (!left) return;
    left.textContent = `${mmss(Math.ceil(limit - now))} left`;
    if (now >= limit) finish();
  }, 250);

  const done = new Promise<Blob>((resolve) => {
    recorder.addEventListener("stop", () =>
      resolve(new Blob(parts, { type: (recorder.mimeType || "video/webm").split(";")[0] })),
    );
  });
  const finish = () => {
    if (recorder.state !== "inactive") recorder.stop();
  };
  stop.addEventListener("click", finish);
  // At the plan's limit to the moment (the tick shows it; this does not wait for the next one).
  const cap = limit > 0 ? setTimeout(finish, limit * 1000) : undefined;
  for (const track of stream.getVideoTracks()) track.addEventListener("ended", finish);
  recorder.start(1000);

  const blob = await done;
  const seconds = elapsed();
  clearInterval(tick);
  clearTimeout(cap);
  bar.remove();
  for (const track of stream.getTracks()) track.stop();
  if (blob.size === 0) throw new RecordError("Nothing was recorded. Try again.");
  return { blob, seconds, upload: (grant, onProgress) => uploadRecording(api, grant, blob, onProgress) };
}

interface Answer {
  status: number;
  text: string;
  header(name: string): string | null;
}

/** One request without cookies (XHR, for the upload's progress); status 0 when the network failed. */
function request(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: Blob | string,
  onProgress?: (sent: number) => void,
): Promise<Answer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onProgress) xhr.upload.onprogress = (event) => onProgress(event.loaded);
    const settle = () =>
      resolve({ status: xhr.status, text: xhr.responseText, header: (name) => xhr.getResponseHeader(name) });
    xhr.onload = settle;
    xhr.onerror = settle;
    xhr.onabort = settle;
    xhr.send(body ?? null);
  });
}

/** Why the upload failed, in the visitor's words: the plan's refusals are the owner's to act on. */
function failure(answer: Answer): Error {
  if (answer.status === 0) return new Error("the connection failed. Check it and send the report again.");
  let body: { code?: unknown; message?: unknown } = {};
  try {
    body = JSON.parse(answer.text) ?? {};
  } catch {}
  if (answer.status === 402)
    return new Error(
      body.code === "video-too-long"
        ? "it is longer than this project's plan allows."
        : "this project's plan does not take screen recordings.",
    );
  if (typeof body.message === "string" && body.message) return new Error(body.message);
  return new Error(`the server refused it (${answer.status}).`);
}

const ATTEMPTS = 3;

/** Uploads the recording with the report's grant and names it; `onProgress` gets 0–1. */
export async function uploadRecording(
  api: string,
  grant: VideoGrant,
  blob: Blob,
  onProgress: (fraction: number) => void,
): Promise<void> {
  const tus = { "tus-resumable": "1.0.0", [WIDGET_VIDEO_TOKEN_HEADER]: grant.token };
  const created = await request("POST", api + grant.uploads, { ...tus, "upload-length": String(blob.size) });
  const location = created.header("location");
  if (created.status !== 201 || !location) throw failure(created);
  const url = new URL(location, api).href;
  let offset = 0;
  for (let attempt = 1; offset < blob.size; attempt++) {
    const sent = await request(
      "PATCH",
      url,
      { ...tus, "upload-offset": String(offset), "content-type": "application/offset+octet-stream" },
      blob.slice(offset),
      (loaded) => onProgress((offset + loaded) / blob.size),
    );
    if (sent.status === 204) {
      offset = Number(sent.header("upload-offset") ?? blob.size);
      continue;
    }
    // A refusal is final; a failed connection or a busy server resumes from what arrived.
    if ((sent.status >= 400 && sent.status < 500) || attempt >= ATTEMPTS) throw failure(sent);
    await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    const arrived = await request("HEAD", url, tus);
    if (arrived.status !== 200) throw failure(arrived);
    offset = Number(arrived.header("upload-offset") ?? 0);
  }
  onProgress(1);
  const upload = url.split("/").pop()!;
  const attached = await request(
    "POST",
    api + grant.attach,
    { "content-type": "application/json", [WIDGET_VIDEO_TOKEN_HEADER]: grant.token },
    JSON.stringify({ upload }),
  );
  if (attached.status !== 202) throw failure(attached);
}
