/** Stripe (card payments): the port modules/billing uses. Nothing outside this folder imports the SDK. */
export { createStripeClient } from "./client.ts";
export {
  type CheckoutRequest,
  createStripePayments,
  type StripeAccount,
  type StripeEvent,
  StripePayments,
} from "./payments.ts";
export { planIdOfPrice, priceLookupKey } from "./subscriptions.ts";
