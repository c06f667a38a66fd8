/**
 * Errors in Stripe's shape (`{ error: { type, message, code?, param? } }`), so the official SDK throws
 * its own typed errors (400/404 → StripeInvalidRequestError, 401 → StripeAuthenticationError,
 * 402 → StripeCardError) against the embedded provider exactly as against Stripe.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ZodError } from "zod";

export interface StripeErrorBody {
  error: {
    type: "invalid_request_error" | "card_error" | "api_error" | "idempotency_error";
    message: string;
    code?: string;
    param?: string;
    decline_code?: string;
  };
}

export class StripeApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details: Omit<StripeErrorBody["error"], "message" | "type"> & {
      type?: StripeErrorBody["error"]["type"];
    } = {},
  ) {
    super(message);
  }

  get body(): StripeErrorBody {
    return {
      error: { type: this.details.type ?? "invalid_request_error", message: this.message, ...this.details },
    };
  }
}

const NAMES: Record<string, string> = {
  cus: "customer",
  cs: "checkout.session",
  price: "price",
  prod: "product",
  sub: "subscription",
  si: "subscription item",
  in: "invoice",
  pi: "payment_intent",
  pm: "PaymentMethod",
  evt: "event",
};

/** Stripe's 404: "No such customer: 'cus_123'". */
export function noSuch(id: string, param?: string): StripeApiError {
  const noun = NAMES[id.split("_")[0] ?? ""] ?? "object";
  return new StripeApiError(param ? 400 : 404, `No such ${noun}: '${id}'`, {
    code: "resource_missing",
    ...(param && { param }),
  });
}

/** `["line_items", 0, "price"]` → `line_items[0][price]`, as Stripe names parameters. */
export function paramName(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path.map(String);
  return `${head ?? ""}${rest.map((segment) => `[${segment}]`).join("")}`;
}

function valueAt(source: unknown, path: readonly PropertyKey[]): unknown {
  let node = source;
  for (const segment of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PropertyKey, unknown>)[segment];
  }
  return node;
}

/** A zod failure on parsed params, worded like Stripe's own messages. */
export function fromZod(error: ZodError, params: unknown): StripeApiError {
  const issue = error.issues[0]!;
  const param = paramName(issue.path);
  if (issue.path.length > 0 && valueAt(params, issue.path) === undefined)
    return new StripeApiError(400, `Missing required param: ${param}.`, { code: "parameter_missing", param });
  return new StripeApiError(400, `Invalid ${param}: ${issue.message}`, { code: "parameter_invalid", param });
}

/** The error handler of the provider's routes: everything leaves in Stripe's shape. */
export function sendStripeError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof StripeApiError) return reply.status(error.statusCode).send(error.body);
  if (error instanceof ZodError) return reply.status(400).send(fromZod(error, undefined).body);
  const status = (error as { statusCode?: number }).statusCode ?? 500;
  if (status >= 400 && status < 500)
    return reply.status(status).send(new StripeApiError(status, error.message).body);
  request.log.error(error);
  return reply.status(500).send({
    error: { type: "api_error", message: "The embedded payment provider failed." },
  } satisfies StripeErrorBody);
}
