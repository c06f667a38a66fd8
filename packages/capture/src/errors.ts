export type CaptureErrorReason =
  | "blocked-url" // not http(s), or resolves to a private/loopback/metadata address
  | "timeout" // the whole job ran past options.timeoutMs
  | "load-failed" // DNS failure, connection refused, HTTP error on the main document, browser crash
  | "too-large" // html + assets over the byte cap
  | "serialize-failed"; // the page loaded but could not be turned into a snapshot

/** The one error type the capture pipeline throws; the server maps `reason` to a user-facing message. */
export class CaptureError extends Error {
  readonly reason: CaptureErrorReason;
  /** For "blocked-url": the URL that was refused (after redirects, the hop that was refused). */
  readonly url: string | undefined;

  constructor(reason: CaptureErrorReason, message: string, options?: { cause?: unknown; url?: string }) {
    super(message, options);
    this.name = "CaptureError";
    this.reason = reason;
    this.url = options?.url;
  }
}
