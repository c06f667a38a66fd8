/**
 * The embedded PayPal provider's vocabulary: PayPal-style ids and times, money, links, the objects it
 * builds (subscriptions' links, transactions, webhook events), and errors in PayPal's shape
 * (`{ name, message, debug_id, details }`, OAuth's `{ error, error_description }`).
 */
import { randomBytes } from "node:crypto";
import type {
  PaypalErrorBody,
  PaypalEvent,
  PaypalLink,
  PaypalMoney,
  PaypalSubscription,
  PaypalTransaction,
} from "@redline/shared/paypal";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ZodError } from "zod";

const UPPER_ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** `I-` + 12 characters (subscriptions), `P-` + 24 (plans), 17 (transactions)… */
export function paypalId(prefix: string, length: number): string {
  return prefix + [...randomBytes(length)].map((byte) => UPPER_ALPHANUMERIC[byte % 36]).join("");
}

/** PayPal's timestamps: ISO 8601 to the second. */
export function paypalTime(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

export const money = (value: number, currency = "USD"): PaypalMoney => ({
  currency_code: currency,
  value: value.toFixed(2),
});

export const link = (href: string, rel: string, method: PaypalLink["method"] = "GET"): PaypalLink => ({
  href,
  rel,
  method,
});

/** A subscription as stored: PayPal's object plus the provider's own notes ("_", never shown). */
export interface StoredSubscription extends PaypalSubscription {
  _return_url: string;
  _cancel_url: string;
}

/** A subscription's links in its state: `approve` only while it waits for approval. */
export function subscriptionLinks(
  urls: ProviderUrls,
  subscription: Pick<PaypalSubscription, "id" | "status">,
) {
  const self = `${urls.api}/v1/billing/subscriptions/${subscription.id}`;
  const links = [link(self, "self"), link(self, "edit", "PATCH")];
  if (subscription.status === "APPROVAL_PENDING")
    links.unshift(link(`${urls.pages}/approve/${subscription.id}`, "approve"));
  if (subscription.status === "ACTIVE" || subscription.status === "SUSPENDED")
    links.push(link(`${self}/cancel`, "cancel", "POST"));
  return links;
}

export interface ProviderUrls {
  /** The API's base as callers use it: {appUrl}/paypal-api. */
  api: string;
  /** The approval page and test controls: {appUrl}/dev/paypal. */
  pages: string;
}

export function transactionObject(
  gross: number,
  currency: string,
  payer: PaypalSubscription["subscriber"],
): PaypalTransaction {
  // PayPal's usual fee (3.49 % + 0.49); the stand-in keeps it only so the breakdown looks right.
  const fee = Math.round((gross * 0.0349 + 0.49) * 100) / 100;
  return {
    id: paypalId("", 17),
    status: "COMPLETED",
    amount_with_breakdown: {
      gross_amount: money(gross, currency),
      fee_amount: money(fee, currency),
      net_amount: money(gross - fee, currency),
    },
    payer_name: payer?.name,
    payer_email: payer?.email_address,
    time: paypalTime(),
  };
}

/** The v1 "sale" a PAYMENT.SALE.* event carries for a subscription's payment. */
export function saleResource(transaction: PaypalTransaction, subscription: PaypalSubscription) {
  const { gross_amount: gross, fee_amount: fee } = transaction.amount_with_breakdown;
  return {
    id: transaction.id,
    state: "completed",
    amount: { total: gross.value, currency: gross.currency_code, details: { subtotal: gross.value } },
    payment_mode: "INSTANT_TRANSFER",
    protection_eligibility: "ELIGIBLE",
    transaction_fee: { value: fee?.value ?? "0.00", currency: gross.currency_code },
    billing_agreement_id: subscription.id,
    custom: subscription.custom_id,
    create_time: transaction.time,
    update_time: transaction.time,
  };
}

const SUMMARIES: Record<string, string> = {
  "BILLING.SUBSCRIPTION.ACTIVATED": "Subscription activated",
  "BILLING.SUBSCRIPTION.SUSPENDED": "Subscription suspended",
  "BILLING.SUBSCRIPTION.CANCELLED": "Subscription cancelled",
  "PAYMENT.SALE.COMPLETED": "Payment completed",
};

export function eventObject(
  urls: ProviderUrls,
  type: string,
  resourceType: "subscription" | "sale",
  resource: Record<string, unknown>,
): PaypalEvent {
  const id = `WH-${paypalId("", 17)}-${paypalId("", 17)}`;
  const self = `${urls.api}/v1/notifications/webhooks-events/${id}`;
  return {
    id,
    event_version: "1.0",
    create_time: paypalTime(),
    resource_type: resourceType,
    resource_version: resourceType === "subscription" ? "2.0" : "1.0",
    event_type: type,
    summary: SUMMARIES[type] ?? type,
    resource,
    links: [link(self, "self"), link(`${self}/resend`, "resend", "POST")],
  };
}

/** An error as PayPal sends it; `body` is PayPal's error object or OAuth's. */
export class PaypalApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: PaypalErrorBody | { error: string; error_description: string },
  ) {
    super("message" in body ? body.message : body.error_description);
  }
}

export function paypalError(
  statusCode: number,
  name: string,
  message: string,
  details?: PaypalErrorBody["details"],
): PaypalApiError {
  return new PaypalApiError(statusCode, {
    name,
    message,
    debug_id: randomBytes(7).toString("hex").slice(0, 13),
    ...(details && { details }),
  });
}

export const notFound = (field?: string) =>
  paypalError(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", [
    {
      ...(field && { field, location: "body" }),
      issue: "INVALID_RESOURCE_ID",
      description: "Requested resource ID was not found.",
    },
  ]);

export const unprocessable = (issue: string, description: string) =>
  paypalError(
    422,
    "UNPROCESSABLE_ENTITY",
    "The requested action could not be performed, semantically incorrect, or failed business validation.",
    [{ issue, description }],
  );

export const authenticationFailure = () =>
  paypalError(
    401,
    "AUTHENTICATION_FAILURE",
    "Authentication failed due to invalid authentication credentials or a missing Authorization header.",
  );

function invalidRequest(error: ZodError): PaypalApiError {
  return paypalError(
    400,
    "INVALID_REQUEST",
    "Request is not well-formed, syntactically incorrect, or violates schema.",
    error.issues.slice(0, 5).map((issue) => ({
      field: `/${issue.path.map(String).join("/")}`,
      location: "body",
      issue:
        issue.code === "invalid_type" && issue.input === undefined
          ? "MISSING_REQUIRED_PARAMETER"
          : "INVALID_PARAMETER_VALUE",
      description: issue.message,
    })),
  );
}

/** The error handler of the provider's API and test controls: everything leaves in PayPal's shape. */
export function sendPaypalError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof PaypalApiError) return reply.status(error.statusCode).send(error.body);
  if (error instanceof ZodError) return reply.status(400).send(invalidRequest(error).body);
  const status = (error as { statusCode?: number }).statusCode ?? 500;
  if (status >= 400 && status < 500)
    return reply.status(status).send(paypalError(status, "INVALID_REQUEST", error.message).body);
  request.log.error(error);
  return reply
    .status(500)
    .send(paypalError(500, "INTERNAL_SERVER_ERROR", "An internal server error has occurred.").body);
}
