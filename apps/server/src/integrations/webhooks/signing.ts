/**
 * The Standard Webhooks scheme (standardwebhooks.com): a secret `whsec_<base64 key>`; each message sent
 * with `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`, a space-separated list
 * of `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` — one per secret that signs, so a receiver
 * holding either the new or the old secret during a rotation verifies.
 */
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/** A new signing secret: 192 random bits. */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(24).toString("base64")}`;
}

export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** The three headers of one attempt, signed with every secret given (current first). */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  body: string,
  now = new Date(),
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => signatureOf(secret, id, timestamp, body)).join(" "),
  };
}
