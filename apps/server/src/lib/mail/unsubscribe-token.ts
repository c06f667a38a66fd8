/**
 * One-click unsubscribe links (RFC 8058) for notification mail: a token names a user and one of their
 * e-mail preferences, expires, and is signed with the instance's secret, so turning a preference off
 * needs no sign-in and nobody can forge one for someone else.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { EMAIL_PREFERENCE_KEYS, type EmailPreferenceKey } from "@redline/shared";

/** How long a mailed link keeps working. */
export const UNSUBSCRIBE_TTL_MS = 90 * 24 * 60 * 60 * 1000;

const sign = (secret: string, payload: string) =>
  createHmac("sha256", secret).update(`redline-unsubscribe:${payload}`).digest("base64url");

export function mintUnsubscribeToken(
  secret: string,
  userId: string,
  preference: EmailPreferenceKey,
  now = Date.now(),
): string {
  const payload = Buffer.from(
    JSON.stringify({ u: userId, p: preference, e: now + UNSUBSCRIBE_TTL_MS }),
  ).toString("base64url");
  return `${payload}.${sign(secret, payload)}`;
}

export type UnsubscribeTokenResult =
  | { ok: true; userId: string; preference: EmailPreferenceKey }
  | { ok: false; reason: "invalid" | "expired" };

export function readUnsubscribeToken(
  secret: string,
  token: string,
  now = Date.now(),
): UnsubscribeTokenResult {
  const [payload, signature, ...rest] = token.split(".");
  if (!payload || !signature || rest.length > 0) return { ok: false, reason: "invalid" };
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { ok: false, reason: "invalid" };
  let claims: { u?: unknown; p?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "invalid" };
  }
  const preference = EMAIL_PREFERENCE_KEYS.find((key) => key === claims.p);
  if (typeof claims.u !== "string" || !preference || typeof claims.e !== "number")
    return { ok: false, reason: "invalid" };
  if (claims.e < now) return { ok: false, reason: "expired" };
  return { ok: true, userId: claims.u, preference };
}
