/**
 * The second payment provider, PayPal subscriptions (SPEC §3, §4, §7), through integrations/paypal — PayPal
 * itself, or the embedded provider (packages/stand-ins, src/paypal). Checkout makes a subscription for the user and
 * hands back PayPal's approval link; the §7 lookup shows one of the user's subscriptions with its
 * transactions; PayPal's webhooks are verified by PayPal (verify-webhook-signature on the exact bytes
 * received), then answered by re-reading the subscription — idempotent and indifferent to order, as
 * billing.webhook.ts is for cards. Second-provider subscriptions are read only here (billing.policy.ts).
 */
import {
  BILLING_MESSAGES,
  billingSubscriptionSchema,
  type CheckoutStarted,
  CURRENT_STATUSES,
  checkoutStartedSchema,
  dataAnswer,
  type PlanId,
  parsePlanId,
  planIdOf,
  webhookReceivedSchema,
} from "@redline/shared";
import { paypalSubscriptionSchema, paypalTransactionSchema } from "@redline/shared/paypal";
import type { FastifyInstance, FastifyRequest } from "fastify";
import secureJson from "secure-json-parse";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type PaypalClient, PaypalError } from "../../integrations/paypal/index.ts";
import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError } from "../../lib/errors.ts";
import { findUnstorableText, jsonDepth, MAX_JSON_DEPTH } from "../../lib/input-boundary.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { authorizeSubscription } from "./billing.policy.ts";
import { presentSubscription } from "./billing.presenter.ts";
import { loadSubscription, subscriptionsOf } from "./billing.sync.ts";
import { handlePaypalEvent, recordPaypalSubscription } from "./paypal.sync.ts";

export const paypalCheckoutSchema = z.object({ planId: z.string().trim().min(1).max(64) });
const lookupQuerySchema = z.object({ include_transactions: z.enum(["true", "false"]).optional() });
/** The fields of a webhook event we read before PayPal has vouched for it. */
const eventSchema = z.object({
  id: z.string().min(1).max(255),
  event_type: z.string().min(1).max(255),
  resource: z.record(z.string(), z.unknown()).optional(),
});
const transmissionSchema = z.object({
  "paypal-auth-algo": z.string().min(1).max(100),
  "paypal-cert-url": z.string().min(1).max(2000),
  "paypal-transmission-id": z.string().min(1).max(255),
  "paypal-transmission-sig": z.string().min(1).max(2000),
  "paypal-transmission-time": z.string().min(1).max(100),
});

/**
 * GET /api/billing/paypal/subscriptions/:id — our record, PayPal's subscription, its transactions. PayPal's
 * own objects are passed on as PayPal sent them: the fields Redline reads, and whatever else PayPal adds.
 */
const paypalLookupSchema = z.strictObject({
  subscription: billingSubscriptionSchema,
  paypal: paypalSubscriptionSchema.omit({ links: true }).loose(),
  transactions: z.array(paypalTransactionSchema.loose()),
});
export type PaypalLookup = z.infer<typeof paypalLookupSchema>;

/** A subscription that blocks another checkout for its product: a live card one, an approved PayPal one. */
const LIVE = {
  card: new Set<string>(CURRENT_STATUSES),
  second: new Set<string>(["active", "past_due"]),
};

/** The subscription an event is about: its resource (BILLING.SUBSCRIPTION.*) or a sale's agreement. */
function subscriptionOfEvent(event: z.infer<typeof eventSchema>): string | null {
  const resource = event.resource ?? {};
  const id = event.event_type.startsWith("BILLING.SUBSCRIPTION.")
    ? resource.id
    : event.event_type.startsWith("PAYMENT.SALE.")
      ? resource.billing_agreement_id
      : null;
  return typeof id === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : null;
}

const alreadySubscribed = () =>
  new ConflictError(
    "You already have a subscription for this product: change its plan instead.",
    "already-subscribed",
  );
const badSignature = () => new BadRequestError("A signed PayPal event is required.", "bad-signature");

export async function paypalRoutes(
  app: FastifyInstance,
  { ctx, paypal }: { ctx: AppContext; paypal: PaypalClient | null },
) {
  const { database, config } = ctx;
  const { db } = database;

  const provider = (): PaypalClient => {
    if (!paypal)
      throw new ServiceUnavailableError(BILLING_MESSAGES.paymentsUnavailable, "payments-unavailable");
    return paypal;
  };

  /** A plan bought through PayPal: no discount; team plans may carry seats in fives (quantity = seats / 5). */
  function purchasable(planId: string): { plan: PlanId; quantity: number } {
    const plan = parsePlanId(planId);
    if (!plan || plan.discount !== null || (plan.seats !== null && plan.seats % 5 !== 0))
      throw new NotFoundError("Plan not found.");
    return { plan, quantity: plan.seats === null ? 1 : plan.seats / 5 };
  }

  app.post(
    "/api/billing/paypal/checkout",
    route({
      summary: "Start paying for a plan with PayPal (PayPal's approval page)",
      body: paypalCheckoutSchema,
      action: "self",
      accepts: ["session"],
      response: dataAnswer(checkoutStartedSchema),
    }),
    async (request): Promise<{ data: CheckoutStarted }> => {
      const { user } = await requireActor(request);
      const { planId } = paypalCheckoutSchema.parse(request.body);
      const { plan, quantity } = purchasable(planId);
      if (!config.plansEnabled)
        throw new ConflictError("Plans are switched off on this server.", "plans-off");
      const paypal = provider();
      const held = (await subscriptionsOf(db, user.id)).some(
        (row) => LIVE[row.provider].has(row.status) && parsePlanId(row.planId)?.product === plan.product,
      );
      if (held) throw alreadySubscribed();
      const chosen = planIdOf(plan);
      const paypalPlanId = await paypal.ensurePlan(planIdOf({ ...plan, seats: null }));
      // Two submits at once (a double click, two tabs) get the same subscription: one approval.
      const window = Math.floor(Date.now() / 60_000);
      const subscription = await paypal.createSubscription(
        {
          plan_id: paypalPlanId,
          quantity: String(quantity),
          custom_id: user.id,
          subscriber: { email_address: user.email },
          application_context: {
            brand_name: "Redline",
            user_action: "SUBSCRIBE_NOW",
            shipping_preference: "NO_SHIPPING",
            return_url: `${config.appUrl}/payment-success/${chosen}?provider=paypal`,
            // Back from a cancelled approval: the summary says nothing was charged.
            cancel_url: `${config.appUrl}/upgrade/confirm/${chosen}?paypal=cancelled`,
          },
        },
        `checkout-${user.id}-${chosen}-${window}`,
      );
      const approve = subscription.links.find((link) => link.rel === "approve");
      // No approval link: the twin of an earlier submit that has been approved meanwhile.
      if (!approve) throw alreadySubscribed();
      return { data: { url: approve.href } };
    },
  );

  app.get(
    "/api/billing/paypal/subscriptions/:subscriptionId",
    route({
      summary: "One of your PayPal subscriptions with its transactions (SPEC §7)",
      query: lookupQuerySchema,
      action: "subscriptions.read",
      accepts: ["session"],
      response: dataAnswer(paypalLookupSchema),
    }),
    async (request): Promise<{ data: PaypalLookup }> => {
      const { user } = await requireActor(request);
      const { subscriptionId } = request.params as { subscriptionId: string };
      const { include_transactions: include } = lookupQuerySchema.parse(request.query ?? {});
      const notFound = () => new NotFoundError(BILLING_MESSAGES.noActiveSubscriptions, "no-subscription");
      const row = await loadSubscription(db, subscriptionId);
      if (row) {
        authorizeSubscription(user.id, "subscriptions.read", row);
        if (row.provider !== "second") throw notFound();
      }
      const paypal = provider();
      const readAt = new Date();
      const live = await paypal.getSubscription(subscriptionId);
      // Not recorded yet (its webhook may still be on its way): PayPal's custom_id says whose it is.
      const isOwn =
        row !== null || live?.custom_id === user.id || user.paypalSubscriptionId === subscriptionId;
      if (!live || !isOwn) throw notFound();
      if (!(await recordPaypalSubscription(db, paypal, live, readAt))) throw notFound();
      const transactions =
        include === "false"
          ? []
          : await paypal.listTransactions(live.id, new Date(live.create_time), new Date());
      const { links: _links, ...subscription } = live;
      const recorded = await loadSubscription(db, subscriptionId);
      return {
        data: { subscription: presentSubscription(recorded!, user.id), paypal: subscription, transactions },
      };
    },
  );

  // The webhook: PayPal checks a checksum of the exact bytes sent, so the body is kept as text here.
  await app.register(async (scope) => {
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) =>
      done(null, body),
    );

    scope.post(
      "/api/billing/paypal/webhook",
      route({
        summary: "PayPal's events (signed)",
        action: "public",
        accepts: ["signed"],
        response: webhookReceivedSchema,
      }),
      async (request) => {
        if (!paypal) throw new NotFoundError();
        const transmission = transmissionSchema.safeParse(request.headers);
        const event = parseEvent(request);
        if (!transmission.success || !event) throw badSignature();
        const headers = transmission.data;
        let verified: boolean;
        try {
          verified = await paypal.verifyWebhookSignature(
            {
              auth_algo: headers["paypal-auth-algo"],
              cert_url: headers["paypal-cert-url"],
              transmission_id: headers["paypal-transmission-id"],
              transmission_sig: headers["paypal-transmission-sig"],
              transmission_time: headers["paypal-transmission-time"],
            },
            request.body as string,
          );
        } catch (error) {
          // PayPal refusing the question itself (4xx) means the delivery is not one it can vouch for.
          if (error instanceof PaypalError && error.status < 500 && error.status !== 401)
            throw badSignature();
          throw new ServiceUnavailableError("PayPal could not verify the event.", "provider-unavailable");
        }
        if (!verified) throw new BadRequestError("The event's signature does not match.", "bad-signature");

        const handled = await handlePaypalEvent(db, paypal, {
          id: event.id,
          type: event.event_type,
          subscriptionId: subscriptionOfEvent(event),
        });
        return handled === "duplicate" ? { received: true, duplicate: true } : { received: true };
      },
    );
  });
}

/** The event's id and type from the raw body, or null when it is not a well-formed event. */
function parseEvent(request: FastifyRequest): z.infer<typeof eventSchema> | null {
  const text = request.body;
  if (typeof text !== "string" || text.trim() === "" || jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH)
    return null;
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: "error", constructorAction: "error" });
  } catch {
    return null;
  }
  if (findUnstorableText(value)) return null;
  const parsed = eventSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
