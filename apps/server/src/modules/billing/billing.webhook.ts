/**
 * The payment provider's webhooks. Each is verified by its signature (the raw body and the
 * Stripe-Signature header, with the SDK), then answered by re-reading the subscriptions it concerns
 * from the provider (billing.sync.ts) — so the same event twice has one effect, and events in any
 * order settle on the provider's latest state. Handled event ids are recorded; a replay is
 * acknowledged and ignored.
 */
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type Stripe from "stripe";
import type { AppContext } from "../../context.ts";
import { billingEvents, users } from "../../db/schema/index.ts";
import { BadRequestError, NotFoundError, ServiceUnavailableError } from "../../lib/errors.ts";
import { route } from "../../lib/routes.ts";
import { idOf, syncCustomer, syncSubscription } from "./billing.sync.ts";

/** The subscription an event is about, or the customer whose subscriptions it may touch. */
function concerns(event: Stripe.Event): { subscription?: string | null; customer?: string | null } {
  const object = event.data.object as unknown as Record<string, unknown>;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.async_payment_failed": {
      const session = event.data.object;
      return { subscription: idOf(session.subscription), customer: idOf(session.customer) };
    }
    default:
      if (event.type.startsWith("customer.subscription."))
        return { subscription: (event.data.object as Stripe.Subscription).id };
      if (event.type.startsWith("invoice.")) {
        const invoice = event.data.object as Stripe.Invoice;
        return {
          subscription: idOf(invoice.parent?.subscription_details?.subscription),
          customer: idOf(invoice.customer),
        };
      }
      if (event.type.startsWith("payment_intent."))
        return { customer: idOf(object.customer as string | null) };
      return {};
  }
}

/** The SDK could not reach the provider, or the provider failed on its side (5xx, rate limit). */
function providerUnreachable(error: unknown): boolean {
  if (!(error instanceof Error) || !("type" in error)) return false;
  const { type, statusCode } = error as { type?: string; statusCode?: number };
  return (
    type === "StripeConnectionError" ||
    type === "StripeRateLimitError" ||
    (type === "StripeAPIError" && (statusCode ?? 500) >= 500)
  );
}

export async function billingWebhookRoutes(
  app: FastifyInstance,
  { ctx, stripe }: { ctx: AppContext; stripe: Stripe | null },
) {
  const { db } = ctx.database;
  // The signature covers the exact bytes sent: keep the body as text in this route's scope.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    "/api/billing/webhook",
    route({ summary: "The payment provider's events (signed)", action: "public", signed: true }),
    async (request) => {
      if (!stripe) throw new NotFoundError();
      const signature = request.headers["stripe-signature"];
      if (typeof request.body !== "string" || typeof signature !== "string")
        throw new BadRequestError("A signed event is required.", "bad-signature");
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(
          request.body,
          signature,
          ctx.config.payments.webhookSecret,
        );
      } catch {
        throw new BadRequestError("The event's signature does not match.", "bad-signature");
      }
      const [seen] = await db.select().from(billingEvents).where(eq(billingEvents.id, event.id));
      if (seen) return { received: true, duplicate: true };

      const { subscription, customer } = concerns(event);
      try {
        if (subscription) await syncSubscription(db, stripe, subscription);
        else if (customer) {
          const [known] = await db
            .select({ id: users.id })
            .from(users)
            .where(eq(users.stripeCustomerId, customer));
          if (known) await syncCustomer(db, stripe, customer);
        }
      } catch (error) {
        // The provider could not be read back: 503, so it delivers the event again later.
        if (providerUnreachable(error))
          throw new ServiceUnavailableError(
            "The payment provider could not be reached.",
            "provider-unavailable",
          );
        throw error;
      }
      // Recorded once handled: a failure above leaves it unrecorded, so the provider's retry is handled.
      await db.insert(billingEvents).values({ id: event.id, type: event.type }).onConflictDoNothing();
      return { received: true };
    },
  );
}
