/**
 * The stand-in's pages and test controls, under /dev/paypal: the approval page a buyer is sent to
 * (Approve → back to the return URL with `subscription_id`, as PayPal does; Cancel → the cancel URL,
 * the subscription left waiting), and the controls developers and tests use to suspend or cancel a
 * subscription as PayPal would (each sends its webhook).
 */

import type { PaypalPlan } from "@redline/shared/paypal";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { route } from "../route.ts";
import { messagePage } from "../stripe/checkout-page.ts";
import { errorPages, html } from "../stripe/dev-pages.routes.ts";
import { present } from "../stripe/provider-store.ts";
import { approvalPage } from "./approve-page.ts";
import { approveSubscription, endSubscription, regularCycle } from "./paypal-flows.ts";
import { notFound, paypalId, type StoredSubscription, sendPaypalError } from "./paypal-objects.ts";
import type { PaypalProvider } from "./paypal-store.ts";

const idParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });

function idOf(request: FastifyRequest): string {
  const parsed = idParams.safeParse(request.params);
  if (!parsed.success) throw notFound();
  return parsed.data.id;
}

const sendErrorPage = errorPages({
  notFound: "This PayPal subscription does not exist.",
  failed: "The embedded PayPal provider failed.",
});

/** Where PayPal sends the buyer back after approving: the return URL with the subscription's id. */
function returnUrl(subscription: StoredSubscription): string {
  const url = new URL(subscription._return_url);
  url.searchParams.set("subscription_id", subscription.id);
  url.searchParams.set("ba_token", paypalId("BA-", 17));
  url.searchParams.set("token", paypalId("", 17));
  return url.href;
}

const intervalName = (unit: string) => unit.toLowerCase();

export async function paypalPagesRoutes(app: FastifyInstance, { provider }: { provider: PaypalProvider }) {
  const { read } = provider;

  await app.register(async (pages) => {
    pages.setErrorHandler(sendErrorPage);

    pages.get(
      "/approve/:id",
      route({ summary: "Test approval page (embedded PayPal)", action: "public" }),
      async (request, reply) => {
        const subscription = await read.get<StoredSubscription>("subscription", idOf(request));
        if (subscription.status === "ACTIVE")
          return html(
            reply,
            200,
            messagePage("Already approved", "This subscription is active.", {
              href: returnUrl(subscription),
              label: "Continue",
            }),
          );
        if (subscription.status !== "APPROVAL_PENDING")
          return html(
            reply,
            409,
            messagePage("Cannot approve", `This subscription is ${subscription.status.toLowerCase()}.`),
          );
        const plan = await read.get<PaypalPlan>("plan", subscription.plan_id);
        const { unit, price } = regularCycle(plan);
        return html(
          reply,
          200,
          approvalPage({
            subscriptionId: subscription.id,
            planName: plan.name,
            amount: Math.round(Number(price.value) * 100) * Number(subscription.quantity),
            currency: price.currency_code,
            interval: intervalName(unit),
            quantity: subscription.quantity,
            email: subscription.subscriber?.email_address ?? null,
          }),
        );
      },
    );

    pages.post(
      "/approve/:id/approve",
      route({ summary: "Test approval: approve (embedded PayPal)", action: "public" }),
      async (request, reply) => {
        const id = idOf(request);
        const approved = await provider.write(reply, (store) => approveSubscription(store, id));
        return reply.redirect(returnUrl(approved), 303);
      },
    );

    pages.post(
      "/approve/:id/cancel",
      route({ summary: "Test approval: cancel (embedded PayPal)", action: "public" }),
      async (request, reply) => {
        const subscription = await read.get<StoredSubscription>("subscription", idOf(request));
        const url = new URL(subscription._cancel_url);
        url.searchParams.set("token", paypalId("", 17));
        return reply.redirect(url.href, 303);
      },
    );
  });

  // Test controls: PayPal-shaped JSON (and errors) out.
  await app.register(async (controls) => {
    controls.setErrorHandler(sendPaypalError);
    for (const [path, to] of [
      ["suspend", "SUSPENDED"],
      ["cancel", "CANCELLED"],
    ] as const) {
      controls.post(
        `/subscriptions/:id/${path}`,
        route({
          summary: `Test control: PayPal ${path}s the subscription (embedded PayPal)`,
          action: "public",
        }),
        async (request, reply) => {
          const id = idOf(request);
          return present(await provider.write(reply, (store) => endSubscription(store, id, to)));
        },
      );
    }
  });
}
