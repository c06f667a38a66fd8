/**
 * The embedded provider's pages and test controls, under /dev/payments: the test checkout (Pay /
 * Decline / Requires action), the hosted invoice page, and the controls developers and tests use to
 * make a customer's card behave, or a renewal happen or fail.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { route } from "../route.ts";
import { id, type Provider, parseParams } from "./api-params.ts";
import { attachCard } from "./charges.ts";
import { checkoutPage, invoicePage, messagePage } from "./checkout-page.ts";
import { payInvoice } from "./plan-changes.ts";
import { present } from "./provider-store.ts";
import { StripeApiError, sendStripeError } from "./stripe-errors.ts";
import type {
  CheckoutSessionObject,
  CustomerObject,
  InvoiceObject,
  ProductObject,
  SubscriptionObject,
} from "./stripe-objects.ts";
import { completeCheckout, exhaustRetries, renew } from "./subscription-flows.ts";

const idParams = z.object({ id });
const DECLINED = "Your card was declined.";

export const html = (reply: FastifyReply, status: number, page: string) =>
  reply
    .status(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .send(page);

/** Errors on pages are pages too; anything unexpected is logged and shown as a 500 page. */
export function errorPages(texts: { notFound: string; failed: string }) {
  return (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status === 404) return html(reply, 404, messagePage("Not found", texts.notFound));
    if (status >= 400 && status < 500)
      return html(reply, status, messagePage("Cannot do that", error.message));
    request.log.error(error);
    return html(reply, 500, messagePage("Something went wrong", texts.failed));
  };
}

const sendErrorPage = errorPages({
  notFound: "This checkout or invoice does not exist, or it has expired.",
  failed: "The embedded payment provider failed.",
});

const successUrl = (session: CheckoutSessionObject) =>
  (session.success_url ?? "/").replaceAll("{CHECKOUT_SESSION_ID}", session.id);

export async function devPagesRoutes(app: FastifyInstance, { provider }: { provider: Provider }) {
  const { read } = provider;
  const appOrigin = new URL(provider.appUrl).origin;

  await app.register(async (pages) => {
    pages.setErrorHandler(sendErrorPage);

    async function renderCheckout(reply: FastifyReply, session: CheckoutSessionObject, error?: string) {
      if (session.status === "complete")
        return html(
          reply,
          200,
          messagePage("Already paid", "This checkout is complete.", {
            href: successUrl(session),
            label: "Continue",
          }),
        );
      if (session.status !== "open") throw new StripeApiError(404, "Expired");
      const line = session.line_items.data[0]!;
      const [product, customer] = await Promise.all([
        read.find<ProductObject>(line.price.product, "product"),
        read.find<CustomerObject>(String(session.customer), "customer"),
      ]);
      return html(
        reply,
        error ? 402 : 200,
        checkoutPage({
          sessionId: session.id,
          productName: product?.name ?? line.price.id,
          amount: session.amount_total ?? 0,
          currency: session.currency ?? line.price.currency,
          interval: line.price.recurring.interval,
          email: customer?.email ?? null,
          cancelUrl: session.cancel_url,
          ...(error && { error }),
        }),
      );
    }

    pages.get(
      "/checkout/:id",
      route({ summary: "Test checkout page (embedded payments)", action: "public" }),
      async (request, reply) => {
        const { id: sessionId } = parseParams(idParams, request.params);
        return renderCheckout(reply, await read.get<CheckoutSessionObject>("checkout.session", sessionId));
      },
    );

    for (const [path, behavior] of [
      ["pay", "succeed"],
      ["requires-action", "requires_action"],
    ] as const) {
      pages.post(
        `/checkout/:id/${path}`,
        route({ summary: `Test checkout: ${path} (embedded payments)`, action: "public" }),
        async (request, reply) => {
          const { id: sessionId } = parseParams(idParams, request.params);
          const { session } = await provider.write(reply, (store) =>
            completeCheckout(store, provider.appUrl, sessionId, behavior),
          );
          return reply.redirect(successUrl(session), 303);
        },
      );
    }

    pages.post(
      "/checkout/:id/decline",
      route({ summary: "Test checkout: decline (embedded payments)", action: "public" }),
      async (request, reply) => {
        const { id: sessionId } = parseParams(idParams, request.params);
        const session = await read.get<CheckoutSessionObject>("checkout.session", sessionId);
        if (session.status === "complete") return reply.redirect(successUrl(session), 303);
        return renderCheckout(reply, session, DECLINED);
      },
    );

    /** Where to go after paying: `return`, when it is a URL of the app itself. */
    const returnUrl = (request: FastifyRequest): string | null => {
      const value = (request.query as { return?: unknown }).return;
      if (typeof value !== "string" || value.length > 2000) return null;
      try {
        const url = new URL(value, provider.appUrl);
        return url.origin === appOrigin ? url.href : null;
      } catch {
        return null;
      }
    };

    async function renderInvoice(reply: FastifyReply, invoice: InvoiceObject, back: string | null) {
      return html(
        reply,
        200,
        invoicePage({
          invoiceId: invoice.id,
          number: invoice.number,
          amount: invoice.status === "paid" ? invoice.amount_paid : invoice.amount_due,
          currency: invoice.currency,
          status: invoice.status ?? "draft",
          lines: invoice.lines.data.map((line) => line.description ?? ""),
          email: invoice.customer_email,
          returnUrl: back,
        }),
      );
    }

    pages.get(
      "/invoices/:id",
      route({ summary: "Hosted invoice page (embedded payments)", action: "public" }),
      async (request, reply) => {
        const { id: invoiceId } = parseParams(idParams, request.params);
        return renderInvoice(reply, await read.get<InvoiceObject>("invoice", invoiceId), returnUrl(request));
      },
    );

    pages.post(
      "/invoices/:id/pay",
      route({ summary: "Pay a hosted invoice (embedded payments)", action: "public" }),
      async (request, reply) => {
        const { id: invoiceId } = parseParams(idParams, request.params);
        const invoice = await provider.write(reply, (store) => payInvoice(store, invoiceId));
        const back = returnUrl(request);
        if (invoice.status === "paid" && back) return reply.redirect(back, 303);
        return renderInvoice(reply, invoice, null);
      },
    );
  });

  // Test controls: JSON in, Stripe-shaped JSON (and errors) out.
  await app.register(async (controls) => {
    controls.setErrorHandler(sendStripeError);

    const cardBody = z.object({ behavior: z.enum(["succeed", "decline", "requires_action"]) });
    controls.post(
      "/customers/:id/card",
      route({
        summary: "Test control: how the customer's card behaves (embedded payments)",
        action: "public",
        body: cardBody,
      }),
      async (request, reply) => {
        const { id: customerId } = parseParams(idParams, request.params);
        const { behavior } = parseParams(cardBody, request.body);
        return provider.write(reply, async (store) => {
          const customer = await store.lock<CustomerObject>("customer", customerId);
          const paymentMethod = await attachCard(store, customer, behavior);
          return { customer: present(customer), payment_method: paymentMethod, behavior };
        });
      },
    );

    for (const [path, fail] of [
      ["renew", false],
      ["fail-renewal", true],
    ] as const) {
      controls.post(
        `/subscriptions/:id/${path}`,
        route({
          summary: `Test control: ${fail ? "a failed renewal" : "the period ends"} (embedded payments)`,
          action: "public",
        }),
        async (request, reply) => {
          const { id: subscriptionId } = parseParams(idParams, request.params);
          const subscription = await provider.write(reply, (store) =>
            renew(store, provider.appUrl, subscriptionId, { fail }),
          );
          return present<SubscriptionObject>(subscription);
        },
      );
    }

    controls.post(
      "/subscriptions/:id/retries-exhausted",
      route({
        summary: "Test control: a past_due subscription's payment retries ran out (embedded payments)",
        action: "public",
      }),
      async (request, reply) => {
        const { id: subscriptionId } = parseParams(idParams, request.params);
        const subscription = await provider.write(reply, (store) => exhaustRetries(store, subscriptionId));
        return present<SubscriptionObject>(subscription);
      },
    );
  });
}
