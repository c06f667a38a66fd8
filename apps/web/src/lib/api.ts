/**
 * The one way the web app calls the Redline API: same-origin fetch with cookies, JSON in and out,
 * and a typed ApiError carrying the server's `{code, message}` for every non-2xx answer.
 */
import type { ApiErrorBody } from "@redline/shared";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

interface RequestOptions {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers (the public link's guest identity). */
  headers?: Record<string, string>;
}

export async function api<T>(
  path: string,
  { method = "GET", body, signal, headers }: RequestOptions = {},
): Promise<T> {
  let response: Response;
  // A FormData body (file uploads) sets its own multipart content type and boundary.
  const isForm = body instanceof FormData;
  // A read, or an upload, that met a briefly unavailable server (503: the database or the file store
  // restarting, a process draining) is sent again after its Retry-After: an upload whose file could not be
  // stored kept nothing (the server writes the row only after the file). Other writes are not repeated
  // blindly: the person sees the error and decides.
  const mayRetry = method === "GET" || isForm;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(path, {
        method,
        signal,
        credentials: "same-origin",
        headers: {
          ...(body === undefined || isForm
            ? { accept: "application/json" }
            : { "content-type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiError(0, "network", "Could not reach the server. Check your connection and try again.");
    }
    if (response.status !== 503 || !mayRetry || attempt >= UNAVAILABLE_RETRIES) break;
    await wait(retryDelayMs(response.headers.get("retry-after"), attempt), signal);
  }
  const text = await response.text();
  const json = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const errorBody = json as Partial<ApiErrorBody> | undefined;
    throw new ApiError(
      response.status,
      errorBody?.code ?? `http-${response.status}`,
      errorBody?.message ?? response.statusText ?? "Something went wrong",
    );
  }
  return json as T;
}

/** How many times a read or an upload is sent again while the server answers 503. */
export const UNAVAILABLE_RETRIES = 3;

/** The server's Retry-After (seconds, at most 10), else 1 s, 2 s, 4 s. */
export function retryDelayMs(retryAfter: string | null, attempt: number): number {
  const seconds = Number(retryAfter);
  if (retryAfter !== null && Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, 10) * 1000;
  return 1000 * 2 ** attempt;
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
