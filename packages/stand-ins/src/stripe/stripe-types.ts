/**
 * The Stripe objects the embedded provider stores and serves, typed to the SDK's types for API
 * version 2026-10-28 (each a `Pick` of the SDK type: every field emitted is type-checked against it).
 * They travel as JSON, so decimal fields are strings, as on the wire. Keys starting with "_" are the
 * provider's own notes (e.g. a checkout session's subscription_data) and never leave it.
 */
import type Stripe from "stripe";

type Wire<T, K extends keyof T, Override = object> = Omit<Pick<T, K>, keyof Override> & Override;

export type ApiList<T> = { object: "list"; data: T[]; has_more: boolean; url: string };

export type CustomerObject = Wire<
  Stripe.Customer,
  | "id"
  | "object"
  | "balance"
  | "created"
  | "default_source"
  | "delinquent"
  | "description"
  | "email"
  | "invoice_settings"
  | "livemode"
  | "metadata"
  | "name"
  | "phone"
  | "shipping"
>;

export type ProductObject = Pick<
  Stripe.Product,
  | "id"
  | "object"
  | "active"
  | "created"
  | "description"
  | "images"
  | "livemode"
  | "marketing_features"
  | "metadata"
  | "name"
  | "package_dimensions"
  | "shippable"
  | "type"
  | "updated"
  | "url"
>;

export type PriceObject = Wire<
  Stripe.Price,
  | "id"
  | "object"
  | "active"
  | "billing_scheme"
  | "created"
  | "currency"
  | "custom_unit_amount"
  | "livemode"
  | "lookup_key"
  | "metadata"
  | "nickname"
  | "product"
  | "recurring"
  | "tax_behavior"
  | "tiers_mode"
  | "transform_quantity"
  | "type"
  | "unit_amount",
  {
    unit_amount_decimal: string | null;
    product: string;
    recurring: Stripe.Price.Recurring;
    /** Its amounts in other currencies: shown as `currency_options` only when expanded (includable). */
    _currency_options?: Record<string, { unit_amount: number }>;
  }
>;

export type PaymentMethodObject = Wire<
  Stripe.PaymentMethod,
  "id" | "object" | "billing_details" | "created" | "customer" | "livemode" | "metadata" | "type",
  {
    card: Wire<
      Stripe.PaymentMethod.Card,
      | "brand"
      | "country"
      | "display_brand"
      | "exp_month"
      | "exp_year"
      | "funding"
      | "last4"
      | "checks"
      | "generated_from"
      | "networks"
      | "regulated_status"
      | "three_d_secure_usage"
      | "wallet"
    >;
  }
>;

export type LineItemObject = Wire<
  Stripe.LineItem,
  | "id"
  | "object"
  | "adjustable_quantity"
  | "amount_discount"
  | "amount_subtotal"
  | "amount_tax"
  | "amount_total"
  | "currency"
  | "description"
  | "metadata"
  | "quantity",
  { price: PriceObject }
>;

export type CheckoutSessionObject = Wire<
  Stripe.Checkout.Session,
  | "id"
  | "object"
  | "amount_subtotal"
  | "amount_total"
  | "cancel_url"
  | "client_reference_id"
  | "created"
  | "currency"
  | "customer"
  | "customer_email"
  | "expires_at"
  | "invoice"
  | "livemode"
  | "metadata"
  | "mode"
  | "payment_intent"
  | "payment_method_types"
  | "payment_status"
  | "status"
  | "subscription"
  | "success_url"
  | "url",
  { line_items: ApiList<LineItemObject>; _subscription_data?: { metadata: Record<string, string> } }
>;

export type SubscriptionItemObject = Wire<
  Stripe.SubscriptionItem,
  | "id"
  | "object"
  | "billing_thresholds"
  | "created"
  | "current_period_end"
  | "current_period_start"
  | "discounts"
  | "metadata"
  | "quantity"
  | "subscription"
  | "tax_rates",
  { price: PriceObject }
>;

export type PendingUpdateObject = Omit<
  Stripe.Subscription.PendingUpdate,
  "subscription_items" | "discount"
> & {
  subscription_items: SubscriptionItemObject[];
  discount: null;
};

export type SubscriptionObject = Wire<
  Stripe.Subscription,
  | "id"
  | "object"
  | "billing_cycle_anchor"
  | "cancel_at"
  | "cancel_at_period_end"
  | "canceled_at"
  | "cancellation_details"
  | "collection_method"
  | "created"
  | "currency"
  | "customer"
  | "days_until_due"
  | "default_payment_method"
  | "default_source"
  | "description"
  | "discounts"
  | "ended_at"
  | "latest_invoice"
  | "livemode"
  | "metadata"
  | "pause_collection"
  | "schedule"
  | "start_date"
  | "status"
  | "test_clock"
  | "trial_end"
  | "trial_start",
  { items: ApiList<SubscriptionItemObject>; pending_update: PendingUpdateObject | null }
>;

export type PaymentIntentObject = Wire<
  Stripe.PaymentIntent,
  | "id"
  | "object"
  | "amount"
  | "amount_capturable"
  | "amount_received"
  | "canceled_at"
  | "cancellation_reason"
  | "capture_method"
  | "client_secret"
  | "confirmation_method"
  | "created"
  | "currency"
  | "customer"
  | "description"
  | "last_payment_error"
  | "latest_charge"
  | "livemode"
  | "metadata"
  | "next_action"
  | "payment_method"
  | "payment_method_types"
  | "status",
  {
    last_payment_error: Wire<
      Stripe.PaymentIntent.LastPaymentError,
      "code" | "decline_code" | "message" | "type",
      { payment_method?: PaymentMethodObject }
    > | null;
  }
>;

export type InvoicePaymentObject = Pick<
  Stripe.InvoicePayment,
  | "id"
  | "object"
  | "amount_paid"
  | "amount_requested"
  | "created"
  | "currency"
  | "invoice"
  | "is_default"
  | "livemode"
  | "payment"
  | "status"
  | "status_transitions"
>;

export type InvoiceLineObject = Wire<
  Stripe.InvoiceLineItem,
  | "id"
  | "object"
  | "amount"
  | "currency"
  | "description"
  | "discount_amounts"
  | "discountable"
  | "discounts"
  | "invoice"
  | "livemode"
  | "metadata"
  | "parent"
  | "period"
  | "quantity"
  | "subscription"
  | "subtotal"
  | "taxes",
  {
    pricing: {
      type: "price_details";
      price_details: { price: string; product: string };
      unit_amount_decimal: string | null;
    };
  }
>;

export type InvoiceObject = Wire<
  Stripe.Invoice,
  | "id"
  | "object"
  | "account_country"
  | "account_name"
  | "amount_due"
  | "amount_overpaid"
  | "amount_paid"
  | "amount_remaining"
  | "amount_shipping"
  | "attempt_count"
  | "attempted"
  | "auto_advance"
  | "billing_reason"
  | "collection_method"
  | "confirmation_secret"
  | "created"
  | "currency"
  | "customer"
  | "customer_email"
  | "customer_name"
  | "default_payment_method"
  | "description"
  | "discounts"
  | "due_date"
  | "effective_at"
  | "hosted_invoice_url"
  | "invoice_pdf"
  | "livemode"
  | "metadata"
  | "next_payment_attempt"
  | "number"
  | "parent"
  | "period_end"
  | "period_start"
  | "starting_balance"
  | "status"
  | "status_transitions"
  | "subtotal"
  | "total"
  | "webhooks_delivered_at",
  { lines: ApiList<InvoiceLineObject>; payments: ApiList<InvoicePaymentObject> }
>;

export type EventObject = Pick<
  Stripe.Event,
  "id" | "object" | "api_version" | "created" | "livemode" | "pending_webhooks" | "request"
> & {
  type: string;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
};

export type StoredObject = { id: string; object: string; created: number; [key: string]: unknown };
