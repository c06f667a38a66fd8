/**
 * The embedded payment provider (development and tests, registered only when no Stripe keys are
 * configured): the part of Stripe's REST API the app calls, under /v1 — so the official SDK talks to
 * it exactly as to Stripe — plus a test checkout page, a hosted invoice page and test controls under
 * /dev/payments, and webhooks signed like Stripe's. State lives in `payment_provider_objects`.
 *
 * This file: the plugin (form parsing, API key, idempotency keys (idempotency.ts), Stripe-shaped errors,
 * webhook queue). The /v1 routes:
 * api-core.routes.ts (customers, prices, checkout sessions) and api-billing.routes.ts (subscriptions,
 * invoices, payment intents, payment methods, events). Pages and test controls: dev-pages.routes.ts.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Host as AppContext } from "../port.ts";
import { route } from "../route.ts";
import { billingApiRoutes } from "./api-billing.routes.ts";
import { coreApiRoutes } from "./api-core.routes.ts";
import { createProvider } from "./api-params.ts";
import { devPagesRoutes } from "./dev-pages.routes.ts";
import { parseStripeParams } from "./form-params.ts";
import { installIdempotency } from "./idempotency.ts";
import { StripeApiError, sendStripeError } from "./stripe-errors.ts";
import { registerWebhookQueue, WebhookQueue } from "./webhooks.ts";

export { paymentsDevIdle } from "./webhooks.ts";

export async function paymentsDevRoutes(
  app: FastifyInstance,
  opts: { ctx: AppContext; webhookUrl: string; webhookSecret: string },
) {
  const webhooks = new WebhookQueue({ url: opts.webhookUrl, secret: opts.webhookSecret, log: app.log });
  registerWebhookQueue(app, webhooks);
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => {
      try {
        done(null, parseStripeParams(body as string));
      } catch (error) {
        done(error as Error);
      }
    },
  );
  app.setErrorHandler(sendStripeError);
  const provider = createProvider(opts.ctx.database.db, opts.ctx.config.appUrl, webhooks);
  const secretKey = opts.ctx.config.payments.secretKey;
  await app.register(
    async (api) => {
      api.addHook("onRequest", async (request) => {
        const header = request.headers.authorization ?? "";
        if (!header)
          throw new StripeApiError(
            401,
            "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
          );
        if (!secretKey || header !== `Bearer ${secretKey}`)
          throw new StripeApiError(401, "Invalid API Key provided.", { code: "api_key_invalid" });
      });
      installIdempotency(api, opts.ctx.database.db);
      // Any other /v1 call: Stripe's 404, so an endpoint the provider lacks is obvious (as a route:
      // the SPA's wildcard would otherwise answer a GET).
      const unknown = async (request: FastifyRequest) => {
        throw new StripeApiError(
          404,
          `Unrecognized request URL (${request.method}: ${request.url.split("?")[0]}).`,
        );
      };
      for (const method of ["GET", "POST", "DELETE"] as const)
        api.route({
          method,
          url: "/*",
          ...route({ summary: "Unknown endpoint (embedded payments)", action: "public" }),
          handler: unknown,
        });
      await coreApiRoutes(api, provider);
      await billingApiRoutes(api, provider);
    },
    { prefix: "/v1" },
  );
  await app.register(devPagesRoutes, { provider, prefix: "/dev/payments" });
}
