/**
 * Short-lived signed paths for the content origin. The content origin never sees the app's session
 * (it is another origin), so the app signs what a reader may load and the content server checks it.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** Expiry is rounded up to the hour, so the same path signs to the same URL for an hour (cacheable). */
export function signPath(secret: string, path: string, ttlSeconds: number, now = Date.now()): string {
  const expires = Math.ceil(now / 3_600_000) * 3600 + ttlSeconds;
  return `${path}?exp=${expires}&sig=${pathSignature(secret, path, expires)}`;
}

/** The signature `verifyPath` checks: `path` until `expires` (seconds since the epoch). */
export function pathSignature(secret: string, path: string, expires: number): string {
  return createHmac("sha256", secret).update(`${path}\n${expires}`).digest("base64url");
}

export function verifyPath(
  secret: string,
  path: string,
  exp: unknown,
  sig: unknown,
  now = Date.now(),
): boolean {
  if (typeof exp !== "string" || typeof sig !== "string" || !/^\d+$/.test(exp)) return false;
  if (Number(exp) * 1000 < now) return false;
  const expected = createHmac("sha256", secret).update(`${path}\n${exp}`).digest();
  const given = Buffer.from(sig, "base64url");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
