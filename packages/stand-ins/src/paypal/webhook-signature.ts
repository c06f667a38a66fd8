/**
 * How the embedded PayPal provider signs its webhook deliveries. PayPal signs
 * `transmissionId|transmissionTime|webhookId|crc32(body)` with its certificate's key; the stand-in signs
 * the same string with an HMAC key derived from AUTH_SECRET (config.paypal.signingSecret). Either way the
 * app never checks a signature itself: it asks the provider's verify-webhook-signature, which here is
 * `isGenuineTransmission`.
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { crc32 } from "node:zlib";

/** What the stand-in puts in paypal-auth-algo: not PayPal's SHA256withRSA, as it is not a certificate. */
export const EMBEDDED_AUTH_ALGO = "HMACSHA256";

export interface TransmissionFields {
  transmissionId: string;
  transmissionTime: string;
  webhookId: string;
}

function signatureOf(secret: string, fields: TransmissionFields, body: string): Buffer {
  const message = `${fields.transmissionId}|${fields.transmissionTime}|${fields.webhookId}|${crc32(body)}`;
  return createHmac("sha256", secret).update(message).digest();
}

/** PayPal's transmission headers for one delivery of `body`. */
export function transmissionHeaders(options: {
  secret: string;
  webhookId: string;
  certUrl: string;
  body: string;
}): Record<string, string> {
  const fields = {
    transmissionId: randomUUID(),
    transmissionTime: new Date().toISOString(),
    webhookId: options.webhookId,
  };
  return {
    "paypal-transmission-id": fields.transmissionId,
    "paypal-transmission-time": fields.transmissionTime,
    "paypal-transmission-sig": signatureOf(options.secret, fields, options.body).toString("base64"),
    "paypal-cert-url": options.certUrl,
    "paypal-auth-algo": EMBEDDED_AUTH_ALGO,
  };
}

/** Whether `signature` (base64) was made by this provider for `body` sent to `webhookId`. */
export function isGenuineTransmission(
  secret: string,
  fields: TransmissionFields & { authAlgo: string; signature: string },
  body: string,
): boolean {
  if (!secret || fields.authAlgo !== EMBEDDED_AUTH_ALGO) return false;
  const expected = signatureOf(secret, fields, body);
  const given = Buffer.from(fields.signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
