/**
 * What the stand-ins need from the app that hosts them, and nothing more: a Fastify instance to register
 * on (each plugin's `app`), a Drizzle handle on the app's PostgreSQL for the object store
 * (store-schema.ts), the app's public URL, and the secrets and settings the app derived from its own
 * config. The package never imports the app (apps/server): the app imports it, and only outside
 * production (app.ts).
 */
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";

// biome-ignore lint/suspicious/noExplicitAny: any schema; the stand-ins use their own table definitions
export type Database = PgDatabase<PgQueryResultHKT, any>;

/** The embedded PayPal provider's settings: the same credentials the app's PayPal client is given. */
export interface PaypalConfig {
  clientId: string | null;
  clientSecret: string;
  /** The webhook's id: part of every signature verification. */
  webhookId: string;
  /** The key the provider signs its webhooks with. */
  signingSecret: string;
}

/**
 * The slice of the host's context the stand-ins read (the app passes its own context, which has this
 * shape): the database, the app's public URL, the keys it derived from its secret, the custom-domain
 * CNAME target.
 */
export interface Host {
  database: { db: Database };
  config: {
    appUrl: string;
    payments: { secretKey: string | null };
    paypal: PaypalConfig;
    customDomains: { target: string };
  };
}
