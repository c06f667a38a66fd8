/**
 * The embedded provider's PayPal REST v1 endpoints (registered under /paypal-api by paypal-dev.routes.ts,
 * behind its bearer-token check): catalog products, billing plans, subscriptions with their
 * transactions and cancellation, and webhook signature verification. PayPal-Request-Id makes a create
 * idempotent, as at PayPal.
 */

import type {
  PaypalPlan,
  PaypalPlanSummary,
  PaypalProduct,
  PaypalSubscription,
  PaypalTransaction,
} from "@redline/shared/paypal";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PaypalConfig } from "../port.ts";
import { route } from "../route.ts";
import { present } from "../stripe/provider-store.ts";
import { endSubscription } from "./paypal-flows.ts";
import {
  link,
  notFound,
  paypalId,
  paypalTime,
  type StoredSubscription,
  subscriptionLinks,
  unprocessable,
} from "./paypal-objects.ts";
import type { PaypalProvider, PaypalWrite } from "./paypal-store.ts";
import { isGenuineTransmission } from "./webhook-signature.ts";

const objectId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const idParams = z.object({ id: objectId });
const httpUrl = z.url({ protocol: /^https?$/ }).max(2000);
const isoTime = z
  .string()
  .max(64)
  .refine(
    (value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)),
    "must be an ISO 8601 date-time",
  );
const money = z.object({
  value: z.string().regex(/^\d{1,7}(\.\d{1,2})?$/),
  currency_code: z.string().regex(/^[A-Z]{3}$/),
});

/** A path id that cannot exist is PayPal's 404, like an unknown one. */
function idOf(request: FastifyRequest): string {
  const parsed = idParams.safeParse(request.params);
  if (!parsed.success) throw notFound();
  return parsed.data.id;
}

/** The PayPal-Request-Id of a create, if any. */
function requestIdOf(request: FastifyRequest): string | undefined {
  const header = request.headers["paypal-request-id"];
  return typeof header === "string" && header.length > 0 && header.length <= 108 ? header : undefined;
}

/**
 * Creates once per PayPal-Request-Id: a retry with the same id gets the object the first call made.
 * `create` returns the object and the row that owns it.
 */
async function createOnce<T extends { id: string }>(
  store: PaypalWrite,
  kind: "product" | "plan" | "subscription",
  requestId: string | undefined,
  create: () => Promise<{ object: T; owner?: string }>,
): Promise<T> {
  const requestKey = requestId ? `request:${kind}:${requestId}` : undefined;
  if (requestKey) {
    await store.lockKey(requestKey);
    const [earlier] = await store.list<T>(kind, { requestKey });
    if (earlier) return earlier;
  }
  const { object, owner } = await create();
  return store.insert(kind, object, { owner, requestKey });
}

export async function paypalApiRoutes(
  app: FastifyInstance,
  { provider, settings }: { provider: PaypalProvider; settings: PaypalConfig },
) {
  const { read, urls } = provider;
  const now = () => paypalTime();

  const createProduct = z.object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{6,50}$/)
      .optional(),
    name: z.string().min(1).max(127),
    description: z.string().max(256).optional(),
    type: z.enum(["PHYSICAL", "DIGITAL", "SERVICE"]).default("PHYSICAL"),
    category: z.string().max(64).optional(),
  });
  app.post(
    "/v1/catalogs/products",
    route({ summary: "Create a catalog product (embedded PayPal)", action: "public" }),
    async (request, reply) => {
      const input = createProduct.parse(request.body ?? {});
      const product = await provider.write(reply, (store) =>
        createOnce<PaypalProduct>(store, "product", requestIdOf(request), async () => {
          const id = input.id ?? paypalId("PROD-", 17);
          await store.lockKey(`product:${id}`);
          if (await store.find("product", id))
            throw unprocessable("DUPLICATE_RESOURCE_IDENTIFIER", "A product with this id already exists.");
          const href = `${urls.api}/v1/catalogs/products/${id}`;
          const time = now();
          return {
            object: {
              ...input,
              id,
              create_time: time,
              update_time: time,
              links: [link(href, "self"), link(href, "edit", "PATCH")],
            },
          };
        }),
      );
      return reply.status(201).send(product);
    },
  );

  app.get(
    "/v1/catalogs/products/:id",
    route({ summary: "Show a catalog product (embedded PayPal)", action: "public" }),
    async (request) => read.get<PaypalProduct>("product", idOf(request)),
  );

  const cycle = z.object({
    frequency: z.object({
      interval_unit: z.enum(["DAY", "WEEK", "MONTH", "YEAR"]),
      interval_count: z.number().int().min(1).max(365).default(1),
    }),
    tenure_type: z.enum(["REGULAR", "TRIAL"]),
    sequence: z.number().int().min(1).max(99),
    total_cycles: z.number().int().min(0).max(999).default(1),
    pricing_scheme: z.object({ fixed_price: money }),
  });
  const createPlan = z.object({
    product_id: objectId,
    name: z.string().min(1).max(127),
    description: z.string().max(127).optional(),
    status: z.enum(["CREATED", "ACTIVE", "INACTIVE"]).default("ACTIVE"),
    billing_cycles: z
      .array(cycle)
      .min(1)
      .max(12)
      .refine((cycles) => cycles.some((c) => c.tenure_type === "REGULAR"), "needs a REGULAR cycle"),
    payment_preferences: z
      .object({
        auto_bill_outstanding: z.boolean().optional(),
        payment_failure_threshold: z.number().int().min(0).max(999).optional(),
      })
      .optional(),
    quantity_supported: z.boolean().default(false),
  });
  app.post(
    "/v1/billing/plans",
    route({ summary: "Create a billing plan (embedded PayPal)", action: "public" }),
    async (request, reply) => {
      const input = createPlan.parse(request.body ?? {});
      const plan = await provider.write(reply, (store) =>
        createOnce<PaypalPlan>(store, "plan", requestIdOf(request), async () => {
          if (!(await store.find("product", input.product_id))) throw notFound("/product_id");
          const id = paypalId("P-", 24);
          const href = `${urls.api}/v1/billing/plans/${id}`;
          const time = now();
          const links = [link(href, "self"), link(href, "edit", "PATCH")];
          return {
            object: { ...input, id, usage_type: "LICENSED", create_time: time, update_time: time, links },
            owner: input.product_id,
          };
        }),
      );
      return reply.status(201).send(plan);
    },
  );

  const listPlans = z.object({
    product_id: objectId.optional(),
    page_size: z.coerce.number().int().min(1).max(20).default(10),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    total_required: z.enum(["true", "false"]).optional(),
  });
  app.get(
    "/v1/billing/plans",
    route({ summary: "List billing plans (embedded PayPal)", action: "public" }),
    async (request) => {
      const query = listPlans.parse(request.query ?? {});
      const all = await read.list<PaypalPlan>("plan", query.product_id ? { owner: query.product_id } : {});
      const start = (query.page - 1) * query.page_size;
      // A list shows each plan without its billing cycles and preferences, as PayPal's does.
      const plans = all
        .slice(start, start + query.page_size)
        .map(
          ({
            billing_cycles: _cycles,
            payment_preferences: _preferences,
            quantity_supported: _quantity,
            update_time: _updated,
            ...summary
          }): PaypalPlanSummary => summary,
        );
      return {
        plans,
        ...(query.total_required === "true" && {
          total_items: all.length,
          total_pages: Math.ceil(all.length / query.page_size),
        }),
        links: [link(`${urls.api}/v1/billing/plans?page=${query.page}&page_size=${query.page_size}`, "self")],
      };
    },
  );

  app.get(
    "/v1/billing/plans/:id",
    route({ summary: "Show a billing plan (embedded PayPal)", action: "public" }),
    async (request) => read.get<PaypalPlan>("plan", idOf(request)),
  );

  const createSubscription = z.object({
    plan_id: objectId,
    quantity: z
      .string()
      .regex(/^[1-9]\d{0,5}$/)
      .default("1"),
    custom_id: z.string().max(127).optional(),
    subscriber: z.object({ email_address: z.email().max(254).optional() }).optional(),
    application_context: z.object({
      brand_name: z.string().max(127).optional(),
      user_action: z.enum(["CONTINUE", "SUBSCRIBE_NOW"]).optional(),
      shipping_preference: z.enum(["GET_FROM_FILE", "NO_SHIPPING", "SET_PROVIDED_ADDRESS"]).optional(),
      return_url: httpUrl,
      cancel_url: httpUrl,
    }),
  });
  app.post(
    "/v1/billing/subscriptions",
    route({ summary: "Create a subscription (embedded PayPal)", action: "public" }),
    async (request, reply) => {
      const input = createSubscription.parse(request.body ?? {});
      const subscription = await provider.write(reply, (store) =>
        createOnce<StoredSubscription>(store, "subscription", requestIdOf(request), async () => {
          const plan = await store.find<PaypalPlan>("plan", input.plan_id);
          if (!plan) throw notFound("/plan_id");
          if (plan.status !== "ACTIVE") throw unprocessable("PLAN_STATUS_INVALID", "The plan is not active.");
          if (input.quantity !== "1" && !plan.quantity_supported)
            throw unprocessable("QUANTITY_NOT_SUPPORTED", "This plan does not support a quantity.");
          const time = now();
          const id = paypalId("I-", 12);
          const { application_context: context, ...fields } = input;
          const object: StoredSubscription = {
            ...fields,
            id,
            status: "APPROVAL_PENDING",
            status_update_time: time,
            start_time: time,
            create_time: time,
            update_time: time,
            plan_overridden: false,
            links: subscriptionLinks(urls, { id, status: "APPROVAL_PENDING" }),
            _return_url: context.return_url,
            _cancel_url: context.cancel_url,
          };
          return { object, owner: input.plan_id };
        }),
      );
      return reply.status(201).send(present(subscription));
    },
  );

  app.get(
    "/v1/billing/subscriptions/:id",
    route({ summary: "Show a subscription (embedded PayPal)", action: "public" }),
    async (request): Promise<PaypalSubscription> =>
      present(await read.get<StoredSubscription>("subscription", idOf(request))),
  );

  const transactionsQuery = z.object({ start_time: isoTime, end_time: isoTime });
  app.get(
    "/v1/billing/subscriptions/:id/transactions",
    route({ summary: "List a subscription's transactions (embedded PayPal)", action: "public" }),
    async (request) => {
      const id = idOf(request);
      const query = transactionsQuery.parse(request.query ?? {});
      await read.get("subscription", id);
      const [start, end] = [Date.parse(query.start_time), Date.parse(query.end_time)];
      const transactions = (await read.list<PaypalTransaction>("transaction", { owner: id })).filter(
        (transaction) => Date.parse(transaction.time) >= start && Date.parse(transaction.time) <= end,
      );
      return {
        transactions,
        total_items: transactions.length,
        total_pages: 1,
        links: [link(`${urls.api}/v1/billing/subscriptions/${id}/transactions`, "self")],
      };
    },
  );

  const cancelBody = z.object({ reason: z.string().min(1).max(128) });
  app.post(
    "/v1/billing/subscriptions/:id/cancel",
    route({ summary: "Cancel a subscription (embedded PayPal)", action: "public" }),
    async (request, reply) => {
      const id = idOf(request);
      cancelBody.parse(request.body ?? {});
      await provider.write(reply, (store) => endSubscription(store, id, "CANCELLED"));
      return reply.status(204).send();
    },
  );

  const verifyBody = z.object({
    auth_algo: z.string().max(100),
    cert_url: z.string().max(2000),
    transmission_id: z.string().max(255),
    transmission_sig: z.string().max(2000),
    transmission_time: z.string().max(100),
    webhook_id: z.string().max(255),
    webhook_event: z.record(z.string(), z.unknown()),
  });
  app.post(
    "/v1/notifications/verify-webhook-signature",
    route({ summary: "Verify a webhook delivery's signature (embedded PayPal)", action: "public" }),
    async (request) => {
      const input = verifyBody.parse(request.body ?? {});
      // The event arrives as the bytes the stand-in sent (JSON.stringify), so it re-serialises identically.
      const genuine =
        input.webhook_id === settings.webhookId &&
        isGenuineTransmission(
          settings.signingSecret,
          {
            authAlgo: input.auth_algo,
            signature: input.transmission_sig,
            transmissionId: input.transmission_id,
            transmissionTime: input.transmission_time,
            webhookId: input.webhook_id,
          },
          JSON.stringify(input.webhook_event),
        );
      return { verification_status: genuine ? "SUCCESS" : "FAILURE" };
    },
  );
}
