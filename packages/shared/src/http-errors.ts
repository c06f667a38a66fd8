/**
 * Errors with an HTTP status and a stable code, thrown by the server's operations and by the embedded
 * stand-ins' pages alike, and answered by the server's one error handler (apps/server/src/app.ts).
 * Server-side only: imported as `@redline/shared/http-errors`, never through the package index.
 */
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
