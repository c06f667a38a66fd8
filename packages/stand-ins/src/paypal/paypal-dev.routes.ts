/**
 * The embedded PayPal provider (development and tests, registered only when no PayPal credentials are
 * configured and never in production): the part of PayPal's REST v1 API the app's client calls, under
 * /paypal-api — OAuth client credentials (Basic auth → a bearer token), then products, plans,
 * subscriptions, transactions and webhook verification (paypal-api.routes.ts) — plus the approval page
 * and test controls under /dev/paypal (paypal-pages.routes.ts), and webhooks delivered to the app with
 * PayPal's transmission headers (webhook-signature.ts) through the card stand-in's delivery queue. State
 * lives in `payment_provider_objects` (paypal-store.ts).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { PaypalEvent } from "@redline/shared/paypal";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Host as AppContext } from "../port.ts";
import { route } from "../route.ts";
import { registerWebhookQueue, WebhookQueue } from "../stripe/webhooks.ts";
import { paypalApiRoutes } from "./paypal-api.routes.ts";
import {
  authenticationFailure,
  PaypalApiError,
  type ProviderUrls,
  sendPaypalError,
} from "./paypal-objects.ts";
import { paypalPagesRoutes } from "./paypal-pages.routes.ts";
import { createPaypalProvider } from "./paypal-store.ts";
import { transmissionHeaders } from "./webhook-signature.ts";

/** How long a token lives (PayPal's are about 9 hours). */
const TOKEN_SECONDS = 9 * 3600;

const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());

/** Stateless bearer tokens: `A21AA<expiry>.<hmac>`, so they survive restarts like PayPal's. */
function tokens(secret: string) {
  const sign = (expiry: string) =>
    createHmac("sha256", `${secret}:tokens`).update(expiry).digest("base64url");
  return {
    issue(): string {
      const expiry = String(Math.floor(Date.now() / 1000) + TOKEN_SECONDS);
      return `A21AA${expiry}.${sign(expiry)}`;
    },
    isValid(token: string): boolean {
      const match = /^A21AA(\d{1,12})\.([A-Za-z0-9_-]{1,100})$/.exec(token);
      if (!match || Number(match[1]) * 1000 < Date.now()) return false;
      return sameSecret(match[2]!, sign(match[1]!));
    },
  };
}

const oauthError = (status: number, error: string, description: string) =>
  new PaypalApiError(status, { error, error_description: description });

const tokenBody = z.object({ grant_type: z.literal("client_credentials") });

export async function paypalDevRoutes(app: FastifyInstance, opts: { ctx: AppContext; webhookUrl: string }) {
  const settings = opts.ctx.config.paypal;
  const appUrl = opts.ctx.config.appUrl;
  const urls: ProviderUrls = { api: `${appUrl}/paypal-api`, pages: `${appUrl}/dev/paypal` };
  const webhooks = new WebhookQueue<PaypalEvent>({
    url: opts.webhookUrl,
    log: app.log,
    sign: (payload) =>
      transmissionHeaders({
        secret: settings.signingSecret,
        webhookId: settings.webhookId,
        certUrl: `${urls.api}/v1/notifications/certs/embedded`,
        body: payload,
      }),
    // In order per subscription: its own events, and its payments' (billing_agreement_id).
    orderKey: (event) => String(event.resource.billing_agreement_id ?? event.resource.id ?? ""),
  });
  registerWebhookQueue(app, webhooks);
  // The approval page's buttons and the OAuth call post forms.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  const provider = createPaypalProvider(opts.ctx.database.db, urls, webhooks);
  const bearer = tokens(settings.signingSecret);

  await app.register(
    async (api) => {
      api.setErrorHandler(sendPaypalError);

      api.post(
        "/v1/oauth2/token",
        route({ summary: "An access token for client credentials (embedded PayPal)", action: "public" }),
        async (request) => {
          const [scheme, encoded] = (request.headers.authorization ?? "").split(" ");
          const [clientId, ...secret] = Buffer.from(encoded ?? "", "base64")
            .toString("utf8")
            .split(":");
          const isClient =
            scheme === "Basic" &&
            settings.clientId !== null &&
            sameSecret(clientId ?? "", settings.clientId) &&
            sameSecret(secret.join(":"), settings.clientSecret);
          if (!isClient) throw oauthError(401, "invalid_client", "Client Authentication failed");
          if (!tokenBody.safeParse(request.body ?? {}).success)
            throw oauthError(400, "unsupported_grant_type", "Grant Type is NULL or not client_credentials");
          return {
            scope: "https://uri.paypal.com/services/subscriptions https://api.paypal.com/v1/payments/.*",
            access_token: bearer.issue(),
            token_type: "Bearer",
            app_id: "APP-REDLINE-EMBEDDED",
            expires_in: TOKEN_SECONDS,
            nonce: `${new Date().toISOString()}${randomBytes(8).toString("hex")}`,
          };
        },
      );

      await api.register(async (authed) => {
        authed.addHook("onRequest", async (request) => {
          const [scheme, token] = (request.headers.authorization ?? "").split(" ");
          if (scheme !== "Bearer" || !token || !bearer.isValid(token)) throw authenticationFailure();
        });
        // Any other call: PayPal's 404, so an endpoint the stand-in lacks is obvious (as a route: the
        // SPA's wildcard would otherwise answer a GET).
        const unknown = async (request: FastifyRequest) => {
          throw new PaypalApiError(404, {
            name: "NOT_FOUND",
            message: `The embedded PayPal provider has no ${request.method} ${request.url.split("?")[0]}.`,
            debug_id: randomBytes(7).toString("hex").slice(0, 13),
          });
        };
        for (const method of ["GET", "POST", "PATCH", "DELETE"] as const)
          authed.route({
            method,
            url: "/*",
            ...route({ summary: "Unknown endpoint (embedded PayPal)", action: "public" }),
            handler: unknown,
          });
        await paypalApiRoutes(authed, { provider, settings });
      });
    },
    { prefix: "/paypal-api" },
  );
  await app.register(paypalPagesRoutes, { provider, prefix: "/dev/paypal" });
}
