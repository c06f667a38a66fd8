import type { PlanLimitDetail } from "@redline/shared";
/** Typed errors, mapped to HTTP once in the app's error handler. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class BadRequestError extends HttpError {
  constructor(message = "Bad request", code = "bad-request") {
    super(400, code, message);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(message = "Sign in to continue.", code = "unauthenticated") {
    super(401, code, message);
  }
}
export class ForbiddenError extends HttpError {
  constructor(message = "You are not allowed to do that.", code = "forbidden") {
    super(403, code, message);
  }
}
export class NotFoundError extends HttpError {
  constructor(message = "Not found", code = "not-found") {
    super(404, code, message);
  }
}
export class ConflictError extends HttpError {
  constructor(message: string, code = "conflict") {
    super(409, code, message);
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
