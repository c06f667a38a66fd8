/**
 * The popup's uploads to Redline (a page's document, a region's image), apart from the popup so their
 * faults are tested without a browser (upload.test.ts): a page over the limit is refused before anything
 * is sent; losing the network, or Redline failing, is an error the person may retry; a refusal is not.
 */
import { EXTENSION_MAX_PAGE_BYTES, EXTENSION_MESSAGES } from "@redline/shared/extension";

/** One upload: where, with which credential, what, and its progress (0…1). */
export interface UploadRequest {
  url: string;
  secret: string | null;
  body: string | FormData;
  onProgress?: (fraction: number) => void;
}

/** Sends an upload and answers its status and text; rejects when the network fails. */
export type Transport = (request: UploadRequest) => Promise<{ status: number; text: string }>;

export type UploadOutcome<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; message: string; retry: boolean };

export const UPLOAD_MESSAGES = {
  offline: "The upload failed: check your connection and try again.",
  failed: "Something went wrong.",
} as const;

/** Whether a page's serialized document is too large to send (the server refuses it too). */
export const isPageTooLarge = (html: string) => new Blob([html]).size > EXTENSION_MAX_PAGE_BYTES;

/** Sends one upload and says what came of it; never throws. */
export async function sendUpload<T>(send: Transport, request: UploadRequest): Promise<UploadOutcome<T>> {
  let answer: { status: number; text: string };
  try {
    answer = await send(request);
  } catch {
    return { ok: false, status: 0, message: UPLOAD_MESSAGES.offline, retry: true };
  }
  let parsed: { data?: T; message?: string } = {};
  try {
    parsed = JSON.parse(answer.text);
  } catch {}
  if (answer.status >= 200 && answer.status < 300) return { ok: true, data: parsed.data as T };
  const message =
    answer.status === 413 ? EXTENSION_MESSAGES.tooLarge : (parsed.message ?? UPLOAD_MESSAGES.failed);
  // Redline failing may pass (retry); a refusal — a page too large, a project gone — will not.
  return { ok: false, status: answer.status, message, retry: answer.status >= 500 };
}

/** The browser's transport: XMLHttpRequest, which reports the upload's progress (fetch cannot). */
export const xhrTransport: Transport = (request) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", request.url);
    if (typeof request.body === "string") xhr.setRequestHeader("content-type", "application/json");
    if (request.secret) xhr.setRequestHeader("authorization", `Bearer ${request.secret}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) request.onProgress?.(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new Error("network"));
    xhr.onabort = () => reject(new Error("aborted"));
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.send(request.body);
  });

/** The worker's transport (no XMLHttpRequest there): fetch, without progress. */
export const fetchTransport: Transport = async (request) => {
  const response = await fetch(request.url, {
    method: "POST",
    headers: {
      ...(request.secret && { authorization: `Bearer ${request.secret}` }),
      ...(typeof request.body === "string" && { "content-type": "application/json" }),
    },
    body: request.body,
  });
  return { status: response.status, text: await response.text() };
};
