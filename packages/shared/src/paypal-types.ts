/**
 * The part of PayPal's REST API (v1: OAuth, catalog products, billing plans and subscriptions, webhook
 * verification) that Redline uses, as PayPal documents it. The client (apps/server/src/integrations/paypal) reads these
 * shapes and the embedded provider (modules/paypal-dev) writes them: one reference for both, as the
 * Stripe SDK's types are for card payments. The subscription and its transactions are zod schemas too:
 * the §7 lookup hands them on to its caller, and declares them as its answer.
 */
import { z } from "zod";

export const paypalMoneySchema = z.object({
  currency_code: z.string(),
  /** A decimal string: "40.00". */
  value: z.string(),
});
export type PaypalMoney = z.infer<typeof paypalMoneySchema>;

export const paypalLinkSchema = z.object({
  href: z.string(),
  rel: z.string(),
  method: z.enum(["GET", "POST", "PATCH"]),
});
export type PaypalLink = z.infer<typeof paypalLinkSchema>;

export interface PaypalProduct {
  id: string;
  name: string;
  description?: string;
  type: "PHYSICAL" | "DIGITAL" | "SERVICE";
  category?: string;
  create_time: string;
  update_time: string;
  links: PaypalLink[];
}

export type PaypalIntervalUnit = "DAY" | "WEEK" | "MONTH" | "YEAR";

export interface PaypalBillingCycle {
  frequency: { interval_unit: PaypalIntervalUnit; interval_count: number };
  tenure_type: "REGULAR" | "TRIAL";
  sequence: number;
  /** 0: until cancelled. */
  total_cycles: number;
  pricing_scheme: { fixed_price: PaypalMoney };
}

export interface PaypalPlan {
  id: string;
  product_id: string;
  name: string;
  description?: string;
  status: "CREATED" | "ACTIVE" | "INACTIVE";
  usage_type?: "LICENSED";
  billing_cycles: PaypalBillingCycle[];
  payment_preferences?: { auto_bill_outstanding?: boolean; payment_failure_threshold?: number };
  /** Whether a subscription may buy several units (our team plans: one unit is five seats). */
  quantity_supported: boolean;
  create_time: string;
  update_time: string;
  links: PaypalLink[];
}

/** An item of GET /v1/billing/plans (no billing cycles). */
export type PaypalPlanSummary = Pick<
  PaypalPlan,
  "id" | "product_id" | "name" | "description" | "status" | "usage_type" | "create_time" | "links"
>;

export const PAYPAL_SUBSCRIPTION_STATUSES = [
  "APPROVAL_PENDING",
  "APPROVED",
  "ACTIVE",
  "SUSPENDED",
  "CANCELLED",
  "EXPIRED",
] as const;
export type PaypalSubscriptionStatus = (typeof PAYPAL_SUBSCRIPTION_STATUSES)[number];

const paypalNameSchema = z.object({ given_name: z.string().optional(), surname: z.string().optional() });

export const paypalSubscriptionSchema = z.object({
  id: z.string(),
  plan_id: z.string(),
  status: z.enum(PAYPAL_SUBSCRIPTION_STATUSES),
  status_update_time: z.string(),
  start_time: z.string(),
  /** A decimal string: "2". */
  quantity: z.string(),
  /** Ours: the user id the subscription was made for. */
  custom_id: z.string().optional(),
  subscriber: z
    .object({
      email_address: z.string().optional(),
      payer_id: z.string().optional(),
      name: paypalNameSchema.optional(),
    })
    .optional(),
  billing_info: z
    .object({
      outstanding_balance: paypalMoneySchema,
      cycle_executions: z.array(
        z.object({
          tenure_type: z.enum(["REGULAR", "TRIAL"]),
          sequence: z.number(),
          cycles_completed: z.number(),
          cycles_remaining: z.number(),
          total_cycles: z.number(),
        }),
      ),
      last_payment: z.object({ amount: paypalMoneySchema, time: z.string() }).optional(),
      next_billing_time: z.string().optional(),
      failed_payments_count: z.number(),
    })
    .optional(),
  create_time: z.string(),
  update_time: z.string(),
  plan_overridden: z.boolean(),
  /** `approve` (while APPROVAL_PENDING), `self`, `edit`, `cancel`… */
  links: z.array(paypalLinkSchema),
});
export type PaypalSubscription = z.infer<typeof paypalSubscriptionSchema>;

export interface PaypalCreateSubscription {
  plan_id: string;
  quantity?: string;
  custom_id?: string;
  subscriber?: { email_address?: string };
  application_context?: {
    brand_name?: string;
    user_action?: "CONTINUE" | "SUBSCRIBE_NOW";
    shipping_preference?: "GET_FROM_FILE" | "NO_SHIPPING" | "SET_PROVIDED_ADDRESS";
    return_url: string;
    cancel_url: string;
  };
}

export const paypalTransactionSchema = z.object({
  id: z.string(),
  status: z.enum(["COMPLETED", "DECLINED", "PARTIALLY_REFUNDED", "PENDING", "REFUNDED"]),
  amount_with_breakdown: z.object({
    gross_amount: paypalMoneySchema,
    fee_amount: paypalMoneySchema.optional(),
    net_amount: paypalMoneySchema.optional(),
  }),
  payer_name: paypalNameSchema.optional(),
  payer_email: z.string().optional(),
  time: z.string(),
});
export type PaypalTransaction = z.infer<typeof paypalTransactionSchema>;

export interface PaypalEvent {
  id: string;
  event_version: string;
  create_time: string;
  resource_type: string;
  resource_version?: string;
  event_type: string;
  summary: string;
  resource: Record<string, unknown>;
  links: PaypalLink[];
}

/** The transmission headers of a webhook delivery, as verify-webhook-signature takes them. */
export interface PaypalTransmission {
  auth_algo: string;
  cert_url: string;
  transmission_id: string;
  transmission_sig: string;
  transmission_time: string;
}

/** PayPal's error body (`{ name, message, debug_id, details }`). */
export interface PaypalErrorBody {
  name: string;
  message: string;
  debug_id: string;
  details?: { field?: string; value?: string; location?: string; issue: string; description?: string }[];
  links?: PaypalLink[];
}
