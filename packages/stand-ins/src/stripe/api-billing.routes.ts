/**
 * The embedded provider's /v1 subscriptions, invoices, payment intents, payment methods and events
 * (registered under the /v1 prefix by payments-dev.routes.ts, behind its API-key check).
 */
import { and } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { route } from "../route.ts";
import {
  boolean,
  expandParam,
  id,
  integer,
  listParams,
  metadataParam,
  type Provider,
  paramsOf,
  parseParams,
} from "./api-params.ts";
import { changePlan, voidInvoice } from "./plan-changes.ts";
import { expand, jsonFieldIn, present } from "./provider-store.ts";
import { StripeApiError } from "./stripe-errors.ts";
import type {
  InvoiceObject,
  PaymentIntentObject,
  PaymentMethodObject,
  StoredObject,
  SubscriptionObject,
} from "./stripe-objects.ts";
import { cancelNow, setCancelAtPeriodEnd, setTrialEnd, updateMetadata } from "./subscription-flows.ts";

const idParams = z.object({ id });
const retrieveQuery = z.object({ expand: expandParam });

const SUBSCRIPTION_STATUSES = [
  "active",
  "all",
  "canceled",
  "ended",
  "incomplete",
  "incomplete_expired",
  "past_due",
  "paused",
  "trialing",
  "unpaid",
] as const;

/** Which stored statuses a `status` filter of GET /v1/subscriptions means (none given: not canceled). */
function statusesFor(status: (typeof SUBSCRIPTION_STATUSES)[number] | undefined): string[] | null {
  if (status === "all") return null;
  if (status === "ended") return ["canceled", "incomplete_expired"];
  if (status) return [status];
  return SUBSCRIPTION_STATUSES.filter((value) => !["all", "ended", "canceled"].includes(value));
}

export async function billingApiRoutes(app: FastifyInstance, provider: Provider) {
  const { read } = provider;
  const retrieve = <T extends StoredObject>(type: string, summary: string, url: string) =>
    app.get(url, route({ summary, action: "public" }), async (request) => {
      const { id: objectId } = parseParams(idParams, request.params);
      const { expand: paths } = parseParams(retrieveQuery, paramsOf(request), request.log);
      return expand(read, present(await read.get<T>(type, objectId)), paths);
    });

  const listSubscriptions = z.object({
    ...listParams,
    customer: id.optional(),
    status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  });
  app.get(
    "/subscriptions",
    route({ summary: "List subscriptions (embedded payments)", action: "public" }),
    async (request) => {
      const input = parseParams(listSubscriptions, paramsOf(request), request.log);
      const statuses = statusesFor(input.status);
      const list = await read.list<SubscriptionObject>("subscription", {
        customer: input.customer,
        ...(statuses && { where: jsonFieldIn(["status"], statuses) }),
        limit: input.limit ?? 10,
        startingAfter: input.starting_after,
        url: "/v1/subscriptions",
      });
      return expand(read, list, input.expand);
    },
  );

  retrieve<SubscriptionObject>(
    "subscription",
    "Retrieve a subscription (embedded payments)",
    "/subscriptions/:id",
  );

  const updateSubscription = z.object({
    cancel_at_period_end: boolean.optional(),
    trial_end: z
      .string()
      .regex(/^\d{1,12}$/, "the embedded provider takes trial_end as a Unix timestamp (not 'now')")
      .transform(Number)
      .optional(),
    items: z
      .array(
        z.object({
          id,
          price: id,
          quantity: integer(1, 1000).optional(),
        }),
      )
      .length(1, "the embedded provider changes exactly one item")
      .optional(),
    payment_behavior: z
      .enum(["pending_if_incomplete", "allow_incomplete", "error_if_incomplete", "default_incomplete"])
      .optional(),
    proration_behavior: z.enum(["always_invoice", "create_prorations", "none"]).optional(),
    metadata: metadataParam,
    expand: expandParam,
  });
  app.post(
    "/subscriptions/:id",
    route({ summary: "Update a subscription (embedded payments)", action: "public" }),
    async (request, reply) => {
      const { id: subscriptionId } = parseParams(idParams, request.params);
      const input = parseParams(updateSubscription, paramsOf(request), request.log);
      const pending = input.payment_behavior === "pending_if_incomplete";
      if (input.items && !pending)
        throw new StripeApiError(
          400,
          "The embedded payment provider changes plans only with payment_behavior=pending_if_incomplete.",
          { param: "payment_behavior" },
        );
      if (input.items && input.proration_behavior && input.proration_behavior !== "always_invoice")
        throw new StripeApiError(
          400,
          "The embedded payment provider changes plans only with proration_behavior=always_invoice.",
          { param: "proration_behavior" },
        );
      if (
        pending &&
        (input.metadata !== undefined ||
          input.cancel_at_period_end !== undefined ||
          input.trial_end !== undefined)
      )
        throw new StripeApiError(
          400,
          "When payment_behavior is pending_if_incomplete, you can only update items and proration_behavior.",
          { param: "payment_behavior" },
        );
      const item = input.items?.[0];
      const subscription = await provider.write(reply, async (store) => {
        if (item)
          return changePlan(store, provider.appUrl, {
            subscription: subscriptionId,
            item: item.id,
            price: item.price,
            quantity: item.quantity,
          });
        if (input.trial_end !== undefined) {
          const trialing = await setTrialEnd(store, subscriptionId, input.trial_end);
          if (input.cancel_at_period_end === undefined && input.metadata === undefined) return trialing;
        }
        if (input.cancel_at_period_end !== undefined)
          return setCancelAtPeriodEnd(store, subscriptionId, input.cancel_at_period_end, input.metadata);
        if (input.metadata !== undefined) return updateMetadata(store, subscriptionId, input.metadata);
        return store.get<SubscriptionObject>("subscription", subscriptionId);
      });
      return expand(read, present(subscription), input.expand);
    },
  );

  app.delete(
    "/subscriptions/:id",
    route({ summary: "Cancel a subscription now (embedded payments)", action: "public" }),
    async (request, reply) => {
      const { id: subscriptionId } = parseParams(idParams, request.params);
      const { expand: paths } = parseParams(retrieveQuery, paramsOf(request), request.log);
      const subscription = await provider.write(reply, (store) => cancelNow(store, subscriptionId));
      return expand(read, present(subscription), paths);
    },
  );

  const listInvoices = z.object({
    ...listParams,
    customer: id.optional(),
    subscription: id.optional(),
    status: z.enum(["draft", "open", "paid", "uncollectible", "void"]).optional(),
  });
  app.get(
    "/invoices",
    route({ summary: "List invoices (embedded payments)", action: "public" }),
    async (request) => {
      const input = parseParams(listInvoices, paramsOf(request), request.log);
      const conditions = [
        ...(input.subscription
          ? [jsonFieldIn(["parent", "subscription_details", "subscription"], [input.subscription])]
          : []),
        ...(input.status ? [jsonFieldIn(["status"], [input.status])] : []),
      ];
      const list = await read.list<InvoiceObject>("invoice", {
        customer: input.customer,
        ...(conditions.length > 0 && { where: and(...conditions) }),
        limit: input.limit ?? 10,
        startingAfter: input.starting_after,
        url: "/v1/invoices",
      });
      return expand(read, list, input.expand);
    },
  );

  retrieve<InvoiceObject>("invoice", "Retrieve an invoice (embedded payments)", "/invoices/:id");

  app.post(
    "/invoices/:id/void",
    route({ summary: "Void an invoice (embedded payments)", action: "public" }),
    async (request, reply) => {
      const { id: invoiceId } = parseParams(idParams, request.params);
      const { expand: paths } = parseParams(retrieveQuery, paramsOf(request), request.log);
      const invoice = await provider.write(reply, (store) => voidInvoice(store, invoiceId));
      return expand(read, present(invoice), paths);
    },
  );

  const listIntents = z.object({ ...listParams, customer: id.optional() });
  app.get(
    "/payment_intents",
    route({ summary: "List payment intents (embedded payments)", action: "public" }),
    async (request) => {
      const input = parseParams(listIntents, paramsOf(request), request.log);
      const list = await read.list<PaymentIntentObject>("payment_intent", {
        customer: input.customer,
        limit: input.limit ?? 10,
        startingAfter: input.starting_after,
        url: "/v1/payment_intents",
      });
      return expand(read, list, input.expand);
    },
  );

  retrieve<PaymentIntentObject>(
    "payment_intent",
    "Retrieve a payment intent (embedded payments)",
    "/payment_intents/:id",
  );
  retrieve<PaymentMethodObject>(
    "payment_method",
    "Retrieve a payment method (embedded payments)",
    "/payment_methods/:id",
  );

  const listEvents = z.object({ ...listParams, type: z.string().max(100).optional() });
  app.get(
    "/events",
    route({ summary: "List events, newest first (embedded payments)", action: "public" }),
    async (request) => {
      const input = parseParams(listEvents, paramsOf(request), request.log);
      const list = await read.list<StoredObject>("event", {
        ...(input.type && { where: jsonFieldIn(["type"], [input.type]) }),
        limit: input.limit ?? 10,
        startingAfter: input.starting_after,
        url: "/v1/events",
      });
      return expand(read, list, input.expand);
    },
  );

  retrieve<StoredObject>("event", "Retrieve an event (embedded payments)", "/events/:id");
}
