/** Typed errors, mapped to HTTP once in the app's error handler; the common ones are shared with the stand-ins. */
import type { PlanLimitDetail } from "@redline/shared";
import { HttpError } from "@redline/shared/http-errors";

export {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  HttpError,
  NotFoundError,
} from "@redline/shared/http-errors";

export class UnauthorizedError extends HttpError {
  constructor(message = "Sign in to continue.", code = "unauthenticated") {
    super(401, code, message);
  }
}
export class ServiceUnavailableError extends HttpError {
  constructor(message: string, code = "unavailable") {
    super(503, code, message);
  }
}
export class PayloadTooLargeError extends HttpError {
  constructor(message: string, code = "payload-too-large") {
    super(413, code, message);
  }
}
export class TooManyRequestsError extends HttpError {
  /** Sent as Retry-After when known. */
  constructor(
    message: string,
    code = "rate-limited",
    readonly retryAfterSeconds?: number,
  ) {
    super(429, code, message);
  }
}

/** A plan limit refused the call: 402 with the limit, so a client can show the upgrade prompt. */
export class PlanLimitError extends HttpError {
  constructor(
    code: string,
    message: string,
    readonly limit: PlanLimitDetail,
  ) {
    super(402, code, message);
  }
}

/** Node's codes for a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);
/** What node-postgres says of a connection lost or never made (it gives these no code). */
const CONNECTION_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
  "Connection closed",
];

/**
 * Whether an error (or any error it wraps: drizzle wraps the driver's) says a service the app stands on
 * cannot be reached: PostgreSQL refused, lost mid-query, timed out connecting, or shutting down / starting
 * up (SQLSTATE class 08, 57P01–3), or the file store refused, reset, timed out or answered 5xx. Such a
 * request is answered 503 with Retry-After — the client tries again — not 500.
 */
export function isBackendUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || /^(08...|57P0[123])$/.test(code)))
      return true;
    if (typeof message === "string" && CONNECTION_MESSAGES.some((text) => message.includes(text)))
      return true;
    // The AWS SDK's: an attempt timed out, or the store answered 5xx (SlowDown, ServiceUnavailable…).
    const { name, $metadata } = cause as { name?: unknown; $metadata?: { httpStatusCode?: number } };
    if (name === "TimeoutError" || ($metadata?.httpStatusCode ?? 0) >= 500) return true;
    if (cause instanceof AggregateError && cause.errors.some(isBackendUnavailable)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether a write failed on a unique index (PostgreSQL's unique_violation, 23505), however the driver
 * wraps it: two writers racing for one name, domain, address or code.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if ((cause as { code?: unknown }).code === "23505") return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
