/**
 * One attempt to deliver a webhook: a signed POST through the capture package's SSRF-guarded fetcher
 * (every resolved address checked at connect time, so DNS rebinding cannot reach a private address),
 * no redirect followed, the answer's body read (up to 1 MB) and dropped. Never throws: the outcome is data.
 */
import { webhookHeaders } from "./signing.ts";

export interface WebhookAttempt {
  url: string;
  id: string;
  body: string;
  /** The secrets that sign: the current one, and a rotated one while it is still valid. */
  secrets: readonly string[];
  timeoutMs: number;
  /** Loopback and private addresses allowed (ALLOW_PRIVATE_URLS, outside production). */
  allowPrivate: boolean;
}

export type WebhookOutcome =
  | { ok: true; status: number }
  | { ok: false; status: number | null; error: string; blocked?: true };

export async function sendWebhook(attempt: WebhookAttempt): Promise<WebhookOutcome> {
  const { CaptureError, Fetcher } = await import("@redline/capture");
  const fetcher = new Fetcher({ allowPrivate: attempt.allowPrivate });
  try {
    const response = await fetcher.fetchResource(attempt.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "Redline-Webhooks/1",
        ...webhookHeaders(attempt.secrets, attempt.id, attempt.body),
      },
      body: Buffer.from(attempt.body, "utf8"),
      maxBytes: 1024 * 1024,
      signal: AbortSignal.timeout(attempt.timeoutMs),
    });
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    return { ok: false, status: response.status, error: `The receiver answered ${response.status}.` };
  } catch (error) {
    if (error instanceof CaptureError && error.reason === "blocked-url")
      return { ok: false, status: null, error: "The URL points to a private network.", blocked: true };
    const name = (error as { name?: string }).name;
    if (name === "TimeoutError" || name === "AbortError")
      return { ok: false, status: null, error: `No answer within ${attempt.timeoutMs / 1000} s.` };
    return { ok: false, status: null, error: "The receiver could not be reached." };
  } finally {
    await fetcher.close();
  }
}
