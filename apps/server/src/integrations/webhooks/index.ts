/** Outgoing webhooks (the Zapier/Webhook integration): Standard Webhooks signing and one guarded attempt. */
export { sendWebhook, type WebhookAttempt, type WebhookOutcome } from "./sender.ts";
export { newWebhookSecret, signatureOf, webhookHeaders } from "./signing.ts";
