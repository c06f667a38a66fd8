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

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
