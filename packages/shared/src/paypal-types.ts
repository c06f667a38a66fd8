/**
 * The part of PayPal's REST API (v1: OAuth, catalog products, billing plans and subscriptions, webhook
 * verification) that Redline uses, as PayPal documents it. The client (apps/server/src/integrations/paypal) reads these
 * shapes and the embedded provider (modules/paypal-dev) writes them: one reference for both, as the
 * Stripe SDK's types are for card payments.
 */

export interface PaypalMoney {
  currency_code: string;
  /** A decimal string: "40.00". */
  value: string;
}

export interface PaypalLink {
  href: string;
  rel: string;
  method: "GET" | "POST" | "PATCH";
}

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

export type PaypalSubscriptionStatus =
  | "APPROVAL_PENDING"
  | "APPROVED"
  | "ACTIVE"
  | "SUSPENDED"
  | "CANCELLED"
  | "EXPIRED";

export interface PaypalSubscription {
  id: string;
  plan_id: string;
  status: PaypalSubscriptionStatus;
  status_update_time: string;
  start_time: string;
  /** A decimal string: "2". */
  quantity: string;
  /** Ours: the user id the subscription was made for. */
  custom_id?: string;
  subscriber?: {
    email_address?: string;
    payer_id?: string;
    name?: { given_name?: string; surname?: string };
  };
  billing_info?: {
    outstanding_balance: PaypalMoney;
    cycle_executions: {
      tenure_type: "REGULAR" | "TRIAL";
      sequence: number;
      cycles_completed: number;
      cycles_remaining: number;
      total_cycles: number;
    }[];
    last_payment?: { amount: PaypalMoney; time: string };
    next_billing_time?: string;
    failed_payments_count: number;
  };
  create_time: string;
  update_time: string;
  plan_overridden: boolean;
  /** `approve` (while APPROVAL_PENDING), `self`, `edit`, `cancel`… */
  links: PaypalLink[];
}

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

export interface PaypalTransaction {
  id: string;
  status: "COMPLETED" | "DECLINED" | "PARTIALLY_REFUNDED" | "PENDING" | "REFUNDED";
  amount_with_breakdown: { gross_amount: PaypalMoney; fee_amount?: PaypalMoney; net_amount?: PaypalMoney };
  payer_name?: { given_name?: string; surname?: string };
  payer_email?: string;
  time: string;
}

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
