/**
 * The only reader of process.env. Validates the environment once and turns it into the AppConfig
 * that everything else receives; a bad value stops the process with a message naming the variable.
 */
import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { EXTENSION_ID, TRACKER_TYPES, type TrackerType } from "@redline/shared";
import { z } from "zod";
import type { S3Options } from "./lib/storage/s3-storage.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

const bool = z.enum(["true", "false", "1", "0"]).transform((value) => value === "true" || value === "1");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().default("localhost"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_URL: z.url().optional(),
  BROWSE_HOST_PREFIX: z
    .string()
    .regex(/^[a-z0-9]{1,30}$/i, "BROWSE_HOST_PREFIX is letters and digits, e.g. bugs")
    .default("bugs"),
  BROWSE_URL: z.url().optional(),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default(path.join(repoRoot, "data")),
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
  AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_ENABLED: bool.default(true),
  PLANS_ENABLED: bool.default(true),
  API_RATE_LIMIT: z.coerce.number().int().positive().default(300),
  API_RATE_LIMIT_EXPENSIVE: z.coerce.number().int().positive().default(30),
  API_TOKEN_RATE_LIMIT: z.coerce.number().int().positive().default(600),
  FILE_GC_GRACE_SECONDS: z.coerce.number().int().min(0).default(3600),
  FILE_GC_INTERVAL_SECONDS: z.coerce.number().int().positive().default(3600),
  AUTH_FRESH_AGE_SECONDS: z.coerce.number().int().positive().default(600),
  TRUST_PROXY: bool.default(false),
  GEO_COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, "must be a header name, e.g. CF-IPCountry")
    .optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Redline <no-reply@localhost>"),
  /** Notification mail: events for one person, project and kind within this window become one message. */
  MAIL_BATCH_WINDOW_MS: z.coerce.number().int().min(0).max(86_400_000).optional(),
  SUPPORT_EMAIL: z.email().default("support@localhost"),
  /** The instance's operators (`/admin`): e-mail addresses separated by commas. */
  ADMIN_EMAILS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((emails) => emails.every((email) => z.email().safeParse(email).success), {
      message: "must be e-mail addresses separated by commas",
    }),
  FEEDBACK_EMAIL: z.email().optional(),
  DOCS_URL: z.url().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** Another Google-compatible OAuth host (serving Google's paths); unset: Google itself. */
  GOOGLE_OAUTH_BASE_URL: z.url().optional(),
  /** Product analytics forwarding (SPEC §7, off by default): a PostHog-compatible project key… */
  POSTHOG_API_KEY: z.string().min(1).optional(),
  /** …and its host (self-hosted PostHog); unset outside production: the embedded stand-in. */
  POSTHOG_HOST: z.url().optional(),
  /** The Slack app (issue #30): its OAuth client, its signing secret and, for a Slack-compatible host, the Web API's base. */
  SLACK_CLIENT_ID: z.string().optional(),
  SLACK_CLIENT_SECRET: z.string().optional(),
  SLACK_SIGNING_SECRET: z.string().optional(),
  SLACK_API_URL: z.url().optional(),
  CONTENT_ORIGIN: z.url().optional(),
  CONTENT_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  ALLOW_PRIVATE_URLS: bool.optional(),
  /** The browser extension's origins (comma-separated; a trailing * for any id): the only foreign origins
   *  its routes answer. Default: the unpacked build's fixed Chromium id and any Firefox install. */
  EXTENSION_ORIGINS: z.string().optional(),
  CAPTURE_WORKER: bool.default(true),
  /** Whether this process works the ledger's consumers (notifications, their mail); false leaves them to others. */
  LEDGER_CONSUMERS: bool.default(true),
  /** How long the ledger keeps events every consumer has read (hours). */
  LEDGER_RETENTION_HOURS: z.coerce.number().int().min(1).max(87_600).default(168),
  ROLE: z.enum(["app", "worker"], "must be app or worker").default("app"),
  CHROMIUM_PATH: z.string().default("/usr/bin/chromium"),
  OVERLAY_SCRIPT: z.string().default(path.join(repoRoot, "packages/overlay/dist/overlay.js")),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default("us-east-1"),
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  WEB_DIST: z.string().default(path.join(repoRoot, "apps/web/dist")),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_URL: z.url().optional(),
  PAYPAL_CLIENT_ID: z.string().optional(),
  PAYPAL_CLIENT_SECRET: z.string().optional(),
  PAYPAL_WEBHOOK_ID: z.string().optional(),
  PAYPAL_API_URL: z.url().optional(),
  /** Trello (a Power-Up's API key and its secret, which signs webhooks); unset: the embedded stand-in. */
  TRELLO_API_KEY: z.string().optional(),
  TRELLO_API_SECRET: z.string().optional(),
  TRELLO_API_URL: z.url().optional(),
  TRELLO_AUTHORIZE_URL: z.url().optional(),
  /** ClickUp (an OAuth app's client id and secret); unset: the embedded stand-in. */
  CLICKUP_CLIENT_ID: z.string().optional(),
  CLICKUP_CLIENT_SECRET: z.string().optional(),
  CLICKUP_API_URL: z.url().optional(),
  CLICKUP_AUTHORIZE_URL: z.url().optional(),
  /** GitHub (an OAuth app's client id and secret); unset: the embedded stand-in. */
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  GITHUB_API_URL: z.url().optional(),
  GITHUB_AUTHORIZE_URL: z.url().optional(),
  GITHUB_TOKEN_URL: z.url().optional(),
  /** Asana (an OAuth app's client id and secret; its API base ends in /api/1.0); unset: the embedded stand-in. */
  ASANA_CLIENT_ID: z.string().optional(),
  ASANA_CLIENT_SECRET: z.string().optional(),
  ASANA_API_URL: z.url().optional(),
  ASANA_AUTHORIZE_URL: z.url().optional(),
  /**
   * Jira Cloud (an Atlassian OAuth 2.0 (3LO) app's client id and secret; the API base is api.atlassian.com,
   * a site's calls under /ex/jira/{cloudId}); unset: the embedded stand-in.
   */
  JIRA_CLIENT_ID: z.string().optional(),
  JIRA_CLIENT_SECRET: z.string().optional(),
  JIRA_API_URL: z.url().optional(),
  JIRA_AUTHORIZE_URL: z.url().optional(),
  JIRA_TOKEN_URL: z.url().optional(),
  DNS_SERVERS: z
    .string()
    .optional()
    .transform((value) =>
      value
        ?.split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine(
      (servers) => !servers || servers.every(isDnsServer),
      "must be IP[:port] entries separated by commas",
    ),
  DNS_DEV_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  CUSTOM_DOMAIN_TARGET: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, "must be a host name, e.g. domains.redline.example")
    .optional(),
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
  METRICS_ALLOW_LOOPBACK: bool.default(false),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_SERVICE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, "must be a short name, e.g. redline")
    .default("redline"),
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(300).default(0),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export interface AppConfig {
  isProduction: boolean;
  host: string;
  port: number;
  appUrl: string;
  /**
   * The bug-tracking variant (SPEC §1): a host whose name starts with `hostPrefix` followed by `.` or `-`
   * shows it; `url` is that host's public origin when it is served by this app beside APP_URL (trusted like
   * APP_URL, linked from the product switcher), null on a single-host install (the switcher decides).
   */
  browse: { hostPrefix: string; url: string | null };
  /** PostgreSQL connection string; absent → embedded PGlite at `pgliteDir`. */
  databaseUrl?: string;
  pgliteDir: string;
  /** Tests only: an in-memory embedded database starts from these saved, migrated files. */
  pgliteSnapshot?: Blob;
  filesDir: string;
  authSecret: string;
  authRateLimit: number;
  /** Auth and API rate limits; always on in production. */
  rateLimitEnabled: boolean;
  /** Plans and their limits; off on a self-hosted instance that wants everything unlimited, no upsell. */
  plansEnabled: boolean;
  /** Check each successful answer against its route's declared response schema (a mismatch is a 500).
   *  On in every test app; off when serving (it costs a parse per answer). */
  validateResponses?: boolean;
  /** API writes per minute per user (or per IP when signed out). */
  apiRateLimit: number;
  /** Expensive API calls (adding pages, captures, uploads) per minute per user or IP. */
  apiRateLimitExpensive: number;
  /** Requests per minute one API token may make, reads included. */
  apiTokenRateLimit: number;
  /** A stored file no row references is removed once it is older than this (it may be about to be). */
  fileGcGraceSeconds: number;
  /** How often the file collector runs. */
  fileGcIntervalSeconds: number;
  authFreshAgeSeconds: number;
  trustProxy: boolean;
  /**
   * The request header in which the reverse proxy or CDN puts the visitor's country (lower case, e.g.
   * `cf-ipcountry`); read only behind a trusted proxy. Unset: the browser's language region decides.
   */
  geoCountryHeader?: string;
  smtpUrl?: string;
  mailFrom: string;
  /** Notification mail batching window (MAIL_BATCH_WINDOW_MS; default 2 minutes, 1 s under test). */
  mailBatchWindowMs: number;
  /** Where Contact Us messages and plan requests are mailed (SUPPORT_EMAIL). */
  supportEmail: string;
  /** The instance's operators, lower-case (ADMIN_EMAILS): they get `/admin` and `/api/admin/*`. */
  adminEmails: readonly string[];
  /** Where feedback from the Help menu is mailed (FEEDBACK_EMAIL, default SUPPORT_EMAIL). */
  feedbackEmail: string;
  /** Help → Support docs opens this (DOCS_URL); unset → the guide shipped with the app, at /help. */
  docsUrl: string | null;
  /** Google sign-in: Google with keys, else the embedded stand-in (outside production) or none. */
  google?: GoogleConfig;
  /**
   * Where the analytics events are forwarded as well (PostHog's capture API), or null: kept in the
   * instance's own database only (the default).
   */
  productAnalytics: ProductAnalyticsConfig | null;
  /** The Slack integration: Slack with an app's keys, else the embedded stand-in (outside production) or none. */
  slack?: SlackConfig;
  webDist: string;
  logLevel: string;
  /** Tests only: where the log lines go instead of stdout. */
  logStream?: NodeJS.WritableStream;
  /**
   * `/metrics` (Prometheus): off when both are off. `token`: a scraper sends `Authorization: Bearer <token>`;
   * `allowLoopback`: a direct connection from this machine (not through a proxy) needs no token.
   */
  metrics: { token: string | null; allowLoopback: boolean };
  /** OpenTelemetry traces over OTLP/HTTP when an endpoint is set; null: off, the SDK is never loaded. */
  tracing: { endpoint: string; serviceName: string } | null;
  /** On SIGTERM, how long readiness answers 503 (draining) before the server stops accepting requests. */
  shutdownDelaySeconds: number;
  /** Origin that serves captured pages and uploads; never the app's origin. */
  contentOrigin: string;
  contentPort: number;
  /** Whether captures may reach private, loopback and link-local addresses (SSRF guard off). */
  allowPrivateUrls: boolean;
  /** The browser extension's origins (lib/principal.ts `isExtensionOrigin`). */
  extensionOrigins: string[];
  /**
   * Outgoing webhooks: the first retry's wait (doubling per attempt, at most an hour) and how long a
   * receiver may take to answer. Under test: 1 s and 1.5 s, so a retry schedule runs within a test.
   */
  webhooks: { retryBaseSeconds: number; timeoutMs: number };
  /** Whether this process works capture jobs (any number of processes may). */
  captureWorker: boolean;
  /** LEDGER_CONSUMERS: this process works the ledger's consumers (lib/ledger.ts). */
  ledgerConsumers: boolean;
  /** LEDGER_RETENTION_HOURS: events older than this go once every consumer read them (default a week). */
  ledgerRetentionHours: number;
  /** `app` serves HTTP (and works jobs); `worker` works jobs only, captures included, and listens on no port. */
  role: "app" | "worker";
  chromiumPath: string;
  /** The built overlay script injected into every snapshot the content origin serves. */
  overlayScript: string;
  /** S3 storage when configured; otherwise files live under `filesDir`. */
  s3?: S3Options;
  /** Card payments: Stripe with keys, else the embedded provider (outside production) or none. */
  payments: PaymentsConfig;
  /** The second provider (PayPal subscriptions): PayPal with credentials, else the embedded one or none. */
  paypal: PaypalConfig;
  /** Teams' custom domains: where their CNAME points, and how DNS is asked. */
  customDomains: CustomDomainsConfig;
  /** Task trackers: each real with keys, else its embedded stand-in (outside production) or none. */
  trackers: Record<TrackerType, TrackerServiceConfig | null>;
}

export interface TrackerServiceConfig {
  /** The app serves the service's stand-in itself (under /dev/trello, /dev/clickup, /dev/asana). */
  embedded: boolean;
  /** Trello's API key / ClickUp's, Asana's client id. */
  clientId: string;
  /** Trello's API secret (signs its webhooks) / ClickUp's, Asana's client secret. */
  clientSecret: string;
  /** The API origin and the authorize page; null with the embedded stand-in (the app's own address). */
  apiUrl: string | null;
  authorizeUrl: string | null;
  /** Where an OAuth code is exchanged when it is not under the API origin (GitHub); unset when embedded. */
  tokenUrl?: string;
}

export interface CustomDomainsConfig {
  /** The host a team's CNAME points at: CUSTOM_DOMAIN_TARGET, else APP_URL's host. */
  target: string;
  /** The DNS servers asked ("ip" or "ip:port"); null: the system's resolvers, or the embedded server. */
  dnsServers: string[] | null;
  /** The app runs its own DNS server (outside production, no DNS_SERVERS); records under /dev/dns. */
  embeddedDns: boolean;
  /** The embedded DNS server's UDP port on 127.0.0.1 (0: any free port, shown on /dev/dns). */
  embeddedDnsPort: number;
}

export interface SlackConfig {
  clientId: string;
  clientSecret: string;
  /** Every Events API request is signed with it (X-Slack-Signature). */
  signingSecret: string;
  /** The Web API's base (SLACK_API_URL; the SDK's `slackApiUrl`); null: the embedded stand-in of this process. */
  apiUrl: string | null;
  /** The app serves a Slack-compatible workspace itself (under /dev/slack). */
  embedded: boolean;
}

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  /** The app serves a Google-compatible OAuth provider itself (under /dev/google). */
  embedded: boolean;
  /** GOOGLE_OAUTH_BASE_URL: a host serving Google's OAuth paths; null: Google (or the embedded one). */
  baseUrl: string | null;
}

export interface ProductAnalyticsConfig {
  apiKey: string;
  /** The capture API's host (no trailing slash). */
  host: string;
  /** The app serves a PostHog-compatible capture API itself (under /dev/posthog). */
  embedded: boolean;
}

export interface PaymentsConfig {
  /** The app serves a Stripe-compatible provider itself (/v1/*, checkout page under /dev/payments). */
  embedded: boolean;
  /** null: no provider (production without keys) — checkout is refused. */
  secretKey: string | null;
  webhookSecret: string;
  /** Stripe's API origin; unset with the embedded provider (the app's own address is used). */
  apiUrl?: string;
}

export interface PaypalConfig {
  /** The app serves a PayPal-compatible provider itself (/paypal-api/v1/*, approval page under /dev/paypal). */
  embedded: boolean;
  /** null: no second provider (production without credentials) — PayPal checkout is refused. */
  clientId: string | null;
  clientSecret: string;
  /** The webhook's id at PayPal: part of every signature verification. */
  webhookId: string;
  /** PayPal's API origin; unset with the embedded provider (the app's own address + /paypal-api). */
  apiUrl?: string;
  /** The embedded provider's webhook signing key ("" with real PayPal, which signs with a certificate). */
  signingSecret: string;
}

/** The embedded PayPal provider's client id (its secret is derived from AUTH_SECRET). */
export const EMBEDDED_PAYPAL_CLIENT_ID = "redline-embedded-paypal";

/** The embedded provider's key: any request to its /v1 API must carry it. */
export const EMBEDDED_STRIPE_KEY = "sk_test_redline_embedded";

export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === "production";
  if (isProduction && !env.AUTH_SECRET)
    throw new Error("Invalid environment:\n  AUTH_SECRET: required in production");
  // Anyone can send the header: it says where the visitor is only when our own proxy sets it.
  if (env.GEO_COUNTRY_HEADER && !env.TRUST_PROXY)
    throw new Error(
      "Invalid environment:\n  GEO_COUNTRY_HEADER: read only behind a trusted proxy — set TRUST_PROXY=true",
    );
  const dataDir = path.resolve(env.DATA_DIR);
  // A production server without rate limits is open to password guessing and floods: the switch is
  // for development and tests only.
  if (isProduction && !env.RATE_LIMIT_ENABLED)
    console.warn("RATE_LIMIT_ENABLED=false is ignored in production: rate limits stay on.");
  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  // Read once for the five trackers (outside production the development secret is a file under DATA_DIR).
  const trackerSecret = env.AUTH_SECRET ?? (isProduction ? "" : localSecret(dataDir));
  return {
    isProduction,
    host: env.HOST,
    port: env.PORT,
    appUrl,
    browse: {
      hostPrefix: env.BROWSE_HOST_PREFIX.toLowerCase(),
      url: env.BROWSE_URL ? new URL(env.BROWSE_URL).origin : null,
    },
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDir: path.join(dataDir, "pglite"),
    filesDir: path.join(dataDir, "files"),
    authSecret: env.AUTH_SECRET ?? localSecret(dataDir),
    authRateLimit: env.AUTH_RATE_LIMIT,
    rateLimitEnabled: env.RATE_LIMIT_ENABLED || isProduction,
    plansEnabled: env.PLANS_ENABLED,
    apiRateLimit: env.API_RATE_LIMIT,
    apiRateLimitExpensive: env.API_RATE_LIMIT_EXPENSIVE,
    apiTokenRateLimit: env.API_TOKEN_RATE_LIMIT,
    fileGcGraceSeconds: env.FILE_GC_GRACE_SECONDS,
    fileGcIntervalSeconds: env.FILE_GC_INTERVAL_SECONDS,
    authFreshAgeSeconds: env.AUTH_FRESH_AGE_SECONDS,
    trustProxy: env.TRUST_PROXY,
    geoCountryHeader: env.GEO_COUNTRY_HEADER?.toLowerCase(),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM,
    mailBatchWindowMs: env.MAIL_BATCH_WINDOW_MS ?? (env.NODE_ENV === "test" ? 1000 : 120_000),
    supportEmail: env.SUPPORT_EMAIL,
    adminEmails: env.ADMIN_EMAILS,
    feedbackEmail: env.FEEDBACK_EMAIL ?? env.SUPPORT_EMAIL,
    docsUrl: env.DOCS_URL ?? null,
    google: googleConfig(env, isProduction, dataDir),
    productAnalytics: productAnalyticsConfig(env, isProduction, appUrl),
    slack: slackConfig(env, isProduction, dataDir),
    webDist: path.resolve(env.WEB_DIST),
    logLevel: env.LOG_LEVEL,
    metrics: { token: env.METRICS_TOKEN ?? null, allowLoopback: env.METRICS_ALLOW_LOOPBACK },
    tracing: env.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, ""), serviceName: env.OTEL_SERVICE_NAME }
      : null,
    shutdownDelaySeconds: env.SHUTDOWN_DELAY_SECONDS,
    contentOrigin: (env.CONTENT_ORIGIN ?? `http://localhost:${env.CONTENT_PORT}`).replace(/\/$/, ""),
    contentPort: env.CONTENT_PORT,
    allowPrivateUrls: env.ALLOW_PRIVATE_URLS ?? !isProduction,
    extensionOrigins: (env.EXTENSION_ORIGINS ?? `chrome-extension://${EXTENSION_ID},moz-extension://*`)
      .split(",")
      .map((origin) => origin.trim().replace(/\/$/, ""))
      .filter(Boolean),
    webhooks:
      env.NODE_ENV === "test"
        ? { retryBaseSeconds: 1, timeoutMs: 1500 }
        : { retryBaseSeconds: 5, timeoutMs: 10_000 },
    captureWorker: env.CAPTURE_WORKER || env.ROLE === "worker",
    ledgerConsumers: env.LEDGER_CONSUMERS,
    ledgerRetentionHours: env.LEDGER_RETENTION_HOURS,
    role: env.ROLE,
    chromiumPath: env.CHROMIUM_PATH,
    overlayScript: path.resolve(env.OVERLAY_SCRIPT),
    payments: paymentsConfig(env, isProduction, dataDir),
    paypal: paypalConfig(env, isProduction, dataDir),
    trackers: Object.fromEntries(
      TRACKER_TYPES.map((type) => [type, trackerConfig(env, isProduction, trackerSecret, type)]),
    ) as AppConfig["trackers"],
    customDomains: {
      target: (env.CUSTOM_DOMAIN_TARGET ?? new URL(appUrl).hostname).toLowerCase(),
      dnsServers: env.DNS_SERVERS?.length ? env.DNS_SERVERS : null,
      // Like the payment stand-ins: never in production, where real DNS must decide who holds a domain.
      embeddedDns: !isProduction && !env.DNS_SERVERS?.length,
      embeddedDnsPort: env.DNS_DEV_PORT,
    },
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          endpoint: env.S3_ENDPOINT,
          forcePathStyle: env.S3_FORCE_PATH_STYLE ?? Boolean(env.S3_ENDPOINT),
          credentials:
            env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
              : undefined,
        }
      : undefined,
  };
}

/** `1.1.1.1`, `1.1.1.1:53`, `2001:db8::1` or `[2001:db8::1]:53`: what node's Resolver.setServers takes. */
function isDnsServer(entry: string): boolean {
  const bracketed = /^\[(.+)\](?::(\d{1,5}))?$/.exec(entry);
  if (bracketed) return isIP(bracketed[1]!) === 6 && (!bracketed[2] || Number(bracketed[2]) <= 65535);
  if (isIP(entry)) return true;
  const [address, port, ...rest] = entry.split(":");
  return rest.length === 0 && isIP(address!) === 4 && /^\d{1,5}$/.test(port ?? "") && Number(port) <= 65535;
}

/** Outside production a secret is made once and kept under DATA_DIR, so sessions survive restarts. */
function localSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function googleConfig(
  env: z.infer<typeof envSchema>,
  isProduction: boolean,
  dataDir: string,
): GoogleConfig | undefined {
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET)
    return {
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      embedded: false,
      baseUrl: env.GOOGLE_OAUTH_BASE_URL?.replace(/\/$/, "") ?? null,
    };
  // Like the payment stand-ins: the embedded provider signs anyone in as anyone, so never in production.
  if (isProduction) return undefined;
  const secret = env.AUTH_SECRET ?? localSecret(dataDir);
  return {
    clientId: EMBEDDED_GOOGLE_CLIENT_ID,
    clientSecret: createHmac("sha256", secret).update("embedded-google").digest("hex"),
    embedded: true,
    baseUrl: null,
  };
}

/** Forwarding only with a key; without a host, PostHog's cloud in production and the stand-in outside it. */
function productAnalyticsConfig(
  env: z.infer<typeof envSchema>,
  isProduction: boolean,
  appUrl: string,
): ProductAnalyticsConfig | null {
  if (!env.POSTHOG_API_KEY) return null;
  if (env.POSTHOG_HOST)
    return { apiKey: env.POSTHOG_API_KEY, host: env.POSTHOG_HOST.replace(/\/$/, ""), embedded: false };
  if (isProduction) return { apiKey: env.POSTHOG_API_KEY, host: "https://us.i.posthog.com", embedded: false };
  return { apiKey: env.POSTHOG_API_KEY, host: `${appUrl}${EMBEDDED_POSTHOG_PATH}`, embedded: true };
}

/** Where the embedded PostHog stand-in answers. */
export const EMBEDDED_POSTHOG_PATH = "/dev/posthog";
function slackConfig(
  env: z.infer<typeof envSchema>,
  isProduction: boolean,
  dataDir: string,
): SlackConfig | undefined {
  if (env.SLACK_CLIENT_ID || env.SLACK_CLIENT_SECRET || env.SLACK_SIGNING_SECRET) {
    if (!env.SLACK_CLIENT_ID || !env.SLACK_CLIENT_SECRET || !env.SLACK_SIGNING_SECRET)
      throw new Error(
        "Invalid environment:\n  SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET go together",
      );
    return {
      clientId: env.SLACK_CLIENT_ID,
      clientSecret: env.SLACK_CLIENT_SECRET,
      signingSecret: env.SLACK_SIGNING_SECRET,
      apiUrl: (env.SLACK_API_URL ?? "https://slack.com/api/").replace(/\/?$/, "/"),
      embedded: false,
    };
  }
  // Like the other stand-ins: the embedded workspace is a test double, so never in production.
  if (isProduction) return undefined;
  const secret = env.AUTH_SECRET ?? localSecret(dataDir);
  const derive = (label: string) => createHmac("sha256", secret).update(label).digest("hex");
  return {
    clientId: EMBEDDED_SLACK_CLIENT_ID,
    clientSecret: derive("embedded-slack-client"),
    signingSecret: derive("embedded-slack-signing"),
    apiUrl: null,
    embedded: true,
  };
}

/** The embedded Slack stand-in's one registered app. */
export const EMBEDDED_SLACK_CLIENT_ID = "1000000000.2000000000";

/** The embedded Google stand-in's one registered client. */
export const EMBEDDED_GOOGLE_CLIENT_ID = "redline-embedded.apps.googleusercontent.com";

function paymentsConfig(
  env: z.infer<typeof envSchema>,
  isProduction: boolean,
  dataDir: string,
): PaymentsConfig {
  if (env.STRIPE_SECRET_KEY) {
    if (!env.STRIPE_WEBHOOK_SECRET)
      throw new Error("Invalid environment:\n  STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY");
    return {
      embedded: false,
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      apiUrl: env.STRIPE_API_URL,
    };
  }
  // The embedded provider takes any "card": never in production, where it would give plans away.
  const embedded = !isProduction;
  const secret = env.AUTH_SECRET ?? (embedded ? localSecret(dataDir) : "");
  return {
    embedded,
    secretKey: embedded ? EMBEDDED_STRIPE_KEY : null,
    webhookSecret: `whsec_${createHmac("sha256", secret).update("embedded-payments").digest("hex")}`,
  };
}

type Env = z.infer<typeof envSchema>;

/** Each task tracker's variables (its credentials' names; API, authorize and token URLs) and the real service's addresses. */
const TRACKER_ENV: Record<
  TrackerType,
  {
    id: keyof Env;
    secret: keyof Env;
    apiUrl: [keyof Env, string];
    authorizeUrl: [keyof Env, string];
    tokenUrl?: [keyof Env, string];
  }
> = {
  trello: {
    id: "TRELLO_API_KEY",
    secret: "TRELLO_API_SECRET",
    apiUrl: ["TRELLO_API_URL", "https://api.trello.com"],
    authorizeUrl: ["TRELLO_AUTHORIZE_URL", "https://trello.com/1/authorize"],
  },
  clickup: {
    id: "CLICKUP_CLIENT_ID",
    secret: "CLICKUP_CLIENT_SECRET",
    apiUrl: ["CLICKUP_API_URL", "https://api.clickup.com"],
    authorizeUrl: ["CLICKUP_AUTHORIZE_URL", "https://app.clickup.com/api"],
  },
  github: {
    id: "GITHUB_CLIENT_ID",
    secret: "GITHUB_CLIENT_SECRET",
    apiUrl: ["GITHUB_API_URL", "https://api.github.com"],
    authorizeUrl: ["GITHUB_AUTHORIZE_URL", "https://github.com/login/oauth/authorize"],
    tokenUrl: ["GITHUB_TOKEN_URL", "https://github.com/login/oauth/access_token"],
  },
  asana: {
    id: "ASANA_CLIENT_ID",
    secret: "ASANA_CLIENT_SECRET",
    apiUrl: ["ASANA_API_URL", "https://app.asana.com/api/1.0"],
    authorizeUrl: ["ASANA_AUTHORIZE_URL", "https://app.asana.com/-/oauth_authorize"],
  },
  jira: {
    id: "JIRA_CLIENT_ID",
    secret: "JIRA_CLIENT_SECRET",
    apiUrl: ["JIRA_API_URL", "https://api.atlassian.com"],
    authorizeUrl: ["JIRA_AUTHORIZE_URL", "https://auth.atlassian.com/authorize"],
    tokenUrl: ["JIRA_TOKEN_URL", "https://auth.atlassian.com/oauth/token"],
  },
};

/** A task tracker: real with both keys; else, outside production, its embedded stand-in; else none. */
function trackerConfig(
  env: Env,
  isProduction: boolean,
  authSecret: string,
  name: TrackerType,
): TrackerServiceConfig | null {
  const vars = TRACKER_ENV[name];
  const read = (key: keyof Env) => {
    const value = env[key];
    return typeof value === "string" && value ? value : undefined;
  };
  const url = ([key, real]: [keyof Env, string]) => read(key) ?? real;
  const clientId = read(vars.id);
  if (clientId) {
    const clientSecret = read(vars.secret);
    if (!clientSecret) throw new Error(`Invalid environment:\n  ${vars.secret}: required with ${vars.id}`);
    return {
      embedded: false,
      clientId,
      clientSecret,
      apiUrl: url(vars.apiUrl).replace(/\/$/, ""),
      authorizeUrl: url(vars.authorizeUrl),
      ...(vars.tokenUrl && { tokenUrl: url(vars.tokenUrl) }),
    };
  }
  // Like the other stand-ins: it grants any account, so never in production.
  if (isProduction) return null;
  const derived = (label: string) => createHmac("sha256", authSecret).update(label).digest("hex");
  return {
    embedded: true,
    clientId: `redline-embedded-${name}`,
    clientSecret: derived(`embedded-${name}-secret`),
    apiUrl: null,
    authorizeUrl: null,
  };
}

function paypalConfig(env: z.infer<typeof envSchema>, isProduction: boolean, dataDir: string): PaypalConfig {
  if (env.PAYPAL_CLIENT_ID) {
    const missing = (["PAYPAL_CLIENT_SECRET", "PAYPAL_WEBHOOK_ID"] as const).find((name) => !env[name]);
    if (missing) throw new Error(`Invalid environment:\n  ${missing}: required with PAYPAL_CLIENT_ID`);
    return {
      embedded: false,
      clientId: env.PAYPAL_CLIENT_ID,
      clientSecret: env.PAYPAL_CLIENT_SECRET!,
      webhookId: env.PAYPAL_WEBHOOK_ID!,
      apiUrl: (env.PAYPAL_API_URL ?? "https://api-m.paypal.com").replace(/\/$/, ""),
      signingSecret: "",
    };
  }
  // Like the card stand-in: it approves any subscription, so never in production.
  if (isProduction)
    return { embedded: false, clientId: null, clientSecret: "", webhookId: "", signingSecret: "" };
  const derived = (label: string) =>
    createHmac("sha256", env.AUTH_SECRET ?? localSecret(dataDir))
      .update(label)
      .digest("hex");
  return {
    embedded: true,
    clientId: EMBEDDED_PAYPAL_CLIENT_ID,
    clientSecret: derived("embedded-paypal-client"),
    webhookId: `WH-EMBEDDED-${derived("embedded-paypal-webhook").slice(0, 16).toUpperCase()}`,
    signingSecret: derived("embedded-paypal-signatures"),
  };
}
