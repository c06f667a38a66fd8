/**
 * The payment provider's webhooks. Each is verified by its signature (the raw body and the
 * Stripe-Signature header, by integrations/stripe), then answered by re-reading the subscriptions it concerns
 * from the provider (billing.sync.ts) — so the same event twice has one effect, and events in any
 * order settle on the provider's latest state. Handled event ids are recorded; a replay is
 * acknowledged and ignored.
 */
import { webhookReceivedSchema } from "@redline/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { billingEvents, users } from "../../db/schema/index.ts";
import { StripePayments } from "../../integrations/stripe/index.ts";
import { BadRequestError, NotFoundError, ServiceUnavailableError } from "../../lib/errors.ts";
import { route } from "../../lib/routes.ts";
import { syncCustomer, syncSubscription } from "./billing.sync.ts";

export async function billingWebhookRoutes(
  app: FastifyInstance,
  { ctx, stripe }: { ctx: AppContext; stripe: StripePayments | null },
) {
  const { db } = ctx.database;
  // The signature covers the exact bytes sent: keep the body as text in this route's scope.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    "/api/billing/webhook",
    route({
      summary: "The payment provider's events (signed)",
      action: "public",
      accepts: ["signed"],
      response: webhookReceivedSchema,
    }),
    async (request) => {
      if (!stripe) throw new NotFoundError();
      const signature = request.headers["stripe-signature"];
      if (typeof request.body !== "string" || typeof signature !== "string")
        throw new BadRequestError("A signed event is required.", "bad-signature");
      const event = await stripe.verifyEvent(request.body, signature);
      if (!event) throw new BadRequestError("The event's signature does not match.", "bad-signature");
      const [seen] = await db.select().from(billingEvents).where(eq(billingEvents.id, event.id));
      if (seen) return { received: true, duplicate: true };

      const { subscription, customer } = event;
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
        if (StripePayments.isUnreachable(error))
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
