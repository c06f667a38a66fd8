/**
 * Errors the stand-ins' own pages throw: a status and a code, which the host's error handler answers
 * as it answers its own 4xx errors (Fastify's `statusCode` and `code`).
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
