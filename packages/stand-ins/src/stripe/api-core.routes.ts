/**
 * The embedded provider's /v1 customers, prices and checkout sessions (registered under the /v1
 * prefix by payments-dev.routes.ts, behind its API-key check).
 */
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
  text,
} from "./api-params.ts";
import { checkoutSessionObject } from "./object-builders.ts";
import { expand, jsonFieldIn, present } from "./provider-store.ts";
import { StripeApiError } from "./stripe-errors.ts";
import {
  type CheckoutSessionObject,
  type CustomerObject,
  customerObject,
  mergeMetadata,
  type PaymentMethodObject,
  type PriceObject,
  priceObject,
  productObject,
  unitAmountIn,
} from "./stripe-objects.ts";

const idParams = z.object({ id });
/** Where the browser is sent back to: http(s) only. */
const httpUrl = z.url({ protocol: /^https?$/ }).max(5000);
const retrieveQuery = z.object({ expand: expandParam });
const currencyCode = z
  .string()
  .regex(/^[a-zA-Z]{3}$/, "must be a three-letter ISO currency code")
  .transform((code) => code.toLowerCase());

export async function coreApiRoutes(app: FastifyInstance, provider: Provider) {
  const { read } = provider;

  const createCustomer = z.object({
    email: text(512).optional(),
    name: text(256).optional(),
    metadata: metadataParam,
    expand: expandParam,
  });
  app.post(
    "/customers",
    route({ summary: "Create a customer (embedded payments)", action: "public" }),
    async (request, reply) => {
      const input = parseParams(createCustomer, paramsOf(request), request.log);
      const customer = await provider.write(reply, (store) =>
        store.insert(customerObject({ ...input, metadata: mergeMetadata({}, input.metadata) })),
      );
      return expand(read, present(customer), input.expand);
    },
  );

  app.get(
    "/customers/:id",
    route({ summary: "Retrieve a customer (embedded payments)", action: "public" }),
    async (request) => {
      const { id: customerId } = parseParams(idParams, request.params);
      const { expand: paths } = parseParams(retrieveQuery, paramsOf(request), request.log);
      return expand(read, present(await read.get<CustomerObject>("customer", customerId)), paths);
    },
  );

  const updateCustomer = z.object({
    email: text(512).optional(),
    name: text(256).optional(),
    metadata: metadataParam,
    invoice_settings: z.object({ default_payment_method: id.optional() }).optional(),
    expand: expandParam,
  });
  app.post(
    "/customers/:id",
    route({ summary: "Update a customer (embedded payments)", action: "public" }),
    async (request, reply) => {
      const { id: customerId } = parseParams(idParams, request.params);
      const input = parseParams(updateCustomer, paramsOf(request), request.log);
      const customer = await provider.write(reply, async (store) => {
        const current = await store.lock<CustomerObject>("customer", customerId);
        const methodId = input.invoice_settings?.default_payment_method;
        if (methodId) {
          const param = "invoice_settings[default_payment_method]";
          const method = await store.get<PaymentMethodObject>("payment_method", methodId, param);
          if (method.customer !== customerId)
            throw new StripeApiError(
              400,
              `The payment method '${methodId}' is not attached to this customer.`,
              { param },
            );
        }
        return store.save<CustomerObject>({
          ...current,
          ...(input.email !== undefined && { email: input.email }),
          ...(input.name !== undefined && { name: input.name }),
          metadata: mergeMetadata(current.metadata, input.metadata),
          ...(methodId && {
            invoice_settings: { ...current.invoice_settings, default_payment_method: methodId },
          }),
        });
      });
      return expand(read, present(customer), input.expand);
    },
  );

  const listPrices = z.object({
    ...listParams,
    active: boolean.optional(),
    lookup_keys: z.array(text(200)).max(10).optional(),
  });
  app.get(
    "/prices",
    route({ summary: "List prices (embedded payments)", action: "public" }),
    async (request) => {
      const input = parseParams(listPrices, paramsOf(request), request.log);
      const list = await read.list<PriceObject>("price", {
        lookupKeys: input.lookup_keys,
        ...(input.active !== undefined && { where: jsonFieldIn(["active"], [String(input.active)]) }),
        limit: input.limit ?? 10,
        startingAfter: input.starting_after,
        url: "/v1/prices",
      });
      return expand(read, list, input.expand);
    },
  );

  const createPrice = z.object({
    currency: currencyCode,
    unit_amount: integer(0, 99_999_999),
    currency_options: z.record(z.string(), z.object({ unit_amount: integer(0, 99_999_999) })).optional(),
    recurring: z.object({ interval: z.enum(["month", "year"]) }),
    product: id.optional(),
    product_data: z.object({ name: text(250).min(1) }).optional(),
    lookup_key: text(200).min(1).optional(),
    metadata: metadataParam,
    expand: expandParam,
  });
  app.post(
    "/prices",
    route({ summary: "Create a price (embedded payments)", action: "public" }),
    async (request, reply) => {
      const input = parseParams(createPrice, paramsOf(request), request.log);
      if (!input.product === !input.product_data)
        throw new StripeApiError(
          400,
          "You must specify either `product` or `product_data` when creating a price.",
          {
            code: "parameter_missing",
            param: "product_data",
          },
        );
      const options = Object.entries(input.currency_options ?? {}).map(([code, option]) => {
        const param = `currency_options[${code}]`;
        if (!/^[a-zA-Z]{3}$/.test(code))
          throw new StripeApiError(400, `Invalid currency: ${code}.`, { param, code: "parameter_invalid" });
        if (code.toLowerCase() === input.currency)
          throw new StripeApiError(
            400,
            `The price's currency (${input.currency}) is set with \`unit_amount\`, not in \`currency_options\`.`,
            { param },
          );
        return [code.toLowerCase(), option.unit_amount] as const;
      });
      const price = await provider.write(reply, async (store) => {
        let productId = input.product;
        if (productId) await store.get("product", productId, "product");
        else productId = (await store.insert(productObject(input.product_data!.name))).id;
        if (input.lookup_key) {
          await store.lockKey(`lookup:${input.lookup_key}`);
          const taken = await store.list<PriceObject>("price", {
            lookupKeys: [input.lookup_key],
            limit: 1,
            url: "",
          });
          if (taken.data[0])
            throw new StripeApiError(400, `A price (\`${taken.data[0].id}\`) already uses that lookup key.`, {
              param: "lookup_key",
            });
        }
        const created = priceObject({
          currency: input.currency,
          unitAmount: input.unit_amount,
          ...(options.length > 0 && { currencyOptions: Object.fromEntries(options) }),
          interval: input.recurring.interval,
          product: productId,
          lookupKey: input.lookup_key,
          metadata: mergeMetadata({}, input.metadata),
        });
        return store.insert(created, { lookupKey: input.lookup_key });
      });
      return expand(read, present(price), input.expand);
    },
  );

  app.get(
    "/prices/:id",
    route({ summary: "Retrieve a price (embedded payments)", action: "public" }),
    async (request) => {
      const { id: priceId } = parseParams(idParams, request.params);
      const { expand: paths } = parseParams(retrieveQuery, paramsOf(request), request.log);
      return expand(read, present(await read.get<PriceObject>("price", priceId)), paths);
    },
  );

  const createSession = z.object({
    mode: z.literal("subscription"),
    customer: id,
    currency: currencyCode.optional(),
    line_items: z
      .array(z.object({ price: id, quantity: integer(1, 1000).optional() }))
      .length(1, "the embedded provider takes exactly one line item"),
    success_url: httpUrl,
    cancel_url: httpUrl.optional(),
    client_reference_id: text(200).optional(),
    metadata: metadataParam,
    subscription_data: z.object({ metadata: metadataParam }).optional(),
    expand: expandParam,
  });
  app.post(
    "/checkout/sessions",
    route({ summary: "Create a checkout session (embedded payments)", action: "public" }),
    async (request, reply) => {
      const input = parseParams(createSession, paramsOf(request), request.log);
      const session = await provider.write(reply, async (store) => {
        await store.get("customer", input.customer, "customer");
        const line = input.line_items[0]!;
        const price = await store.get<PriceObject>("price", line.price, "line_items[0][price]");
        if (!price.active)
          throw new StripeApiError(400, `The price '${price.id}' is not active.`, {
            param: "line_items[0][price]",
          });
        const currency = input.currency ?? price.currency;
        const unitAmount = unitAmountIn(price, currency);
        if (unitAmount === null)
          throw new StripeApiError(
            400,
            `The price '${price.id}' has no amount in ${currency}: add it to the price's \`currency_options\`, or leave \`currency\` out.`,
            { param: "currency" },
          );
        return store.insert(
          checkoutSessionObject({
            appUrl: provider.appUrl,
            customer: input.customer,
            price,
            currency,
            unitAmount,
            quantity: line.quantity ?? 1,
            successUrl: input.success_url,
            cancelUrl: input.cancel_url ?? null,
            clientReferenceId: input.client_reference_id ?? null,
            metadata: mergeMetadata({}, input.metadata),
            subscriptionMetadata: mergeMetadata({}, input.subscription_data?.metadata),
          }),
        );
      });
      return expand(read, present(session), input.expand);
    },
  );

  const listSessions = z.object({
    ...listParams,
    customer: id.optional(),
    status: z.enum(["open", "complete", "expired"]).optional(),
  });
  app.get(
    "/checkout/sessions",
    route({ summary: "List checkout sessions (embedded payments)", action: "public" }),
    async (request) => {
      const input = parseParams(listSessions, paramsOf(request), request.log);
      const list = await read.list<CheckoutSessionObject>("checkout.session", {
        customer: input.customer,
        ...(input.status && { where: jsonFieldIn(["status"], [input.status]) }),
        limit: input.limit ?? 10,
        startingAfter: input.starting_after,
        url: "/v1/checkout/sessions",
      });
      return expand(read, list, input.expand);
    },
  );

  app.get(
    "/checkout/sessions/:id",
    route({ summary: "Retrieve a checkout session (embedded payments)", action: "public" }),
    async (request) => {
      const { id: sessionId } = parseParams(idParams, request.params);
      const { expand: paths } = parseParams(retrieveQuery, paramsOf(request), request.log);
      return expand(
        read,
        present(await read.get<CheckoutSessionObject>("checkout.session", sessionId)),
        paths,
      );
    },
  );

  app.post(
    "/checkout/sessions/:id/expire",
    route({ summary: "Expire a checkout session (embedded payments)", action: "public" }),
    async (request, reply) => {
      const { id: sessionId } = parseParams(idParams, request.params);
      const { expand: paths } = parseParams(retrieveQuery, paramsOf(request), request.log);
      const session = await provider.write(reply, async (store) => {
        const current = await store.lock<CheckoutSessionObject>("checkout.session", sessionId);
        if (current.status !== "open")
          throw new StripeApiError(
            400,
            `Only Checkout Sessions with a status in ["open"] can be expired; this one is ${current.status}.`,
          );
        const expired = await store.save<CheckoutSessionObject>({ ...current, status: "expired", url: null });
        await store.emit("checkout.session.expired", expired);
        return expired;
      });
      return expand(read, present(session), paths);
    },
  );
}
