/**
 * The one Stripe client: the official SDK, pointed at Stripe with real keys or at the embedded stand-in
 * this same process serves under /v1 (packages/stand-ins, src/stripe) when none are configured.
 */
import Stripe from "stripe";
import type { AppConfig } from "../../env.ts";
import { selfUrl } from "../../lib/self-url.ts";

/** null when this server takes no payments (production without keys). */
export function createStripeClient(config: AppConfig): Stripe | null {
  const { payments } = config;
  if (!payments.secretKey) return null;
  const apiUrl = payments.apiUrl ?? (payments.embedded ? selfUrl(config) : undefined);
  const target = apiUrl ? new URL(apiUrl) : null;
  return new Stripe(payments.secretKey, {
    ...(target && {
      host: target.hostname.replace(/^\[|\]$/g, ""),
      port: target.port ? Number(target.port) : target.protocol === "https:" ? 443 : 80,
      protocol: target.protocol === "https:" ? "https" : "http",
    }),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
}
