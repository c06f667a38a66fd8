/**
 * Embedded stand-ins of outside services, for development and tests only: a Stripe-compatible payment
 * provider (stripe/), a PayPal-compatible one (paypal/), a DNS server with its page (dns/) and Google's
 * OAuth/OpenID Connect endpoints for Google sign-in (google/). The app
 * imports this package dynamically, only outside production and without real keys (apps/server app.ts);
 * no production code path reaches it (apps/server/src/stand-ins.imports.test.ts).
 */
export { dnsDevRoutes } from "./dns/dns-dev.routes.ts";
export { type DevDnsServer, DnsRecordConflict, startDevDnsServer } from "./dns/dns-dev.server.ts";
export { type GoogleDevOptions, googleDevRoutes } from "./google/google-dev.routes.ts";
export { paypalDevRoutes } from "./paypal/paypal-dev.routes.ts";
export { transmissionHeaders } from "./paypal/webhook-signature.ts";
export type { Host } from "./port.ts";
export { paymentsDevIdle, paymentsDevRoutes } from "./stripe/payments-dev.routes.ts";
