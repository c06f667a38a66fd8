/** PayPal (the second payment provider): the port modules/billing uses. */
export {
  createPaypalClient,
  PAYPAL_CURRENCY,
  PaypalClient,
  PaypalError,
  paypalPlanName,
  planIdOfPaypalName,
} from "./client.ts";
export {
  PAYPAL_STATUSES,
  paypalSnapshot,
  planIdOfPaypalSubscription,
  presentPaypalTransaction,
} from "./subscriptions.ts";
