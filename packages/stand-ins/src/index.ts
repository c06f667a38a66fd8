/**
 * Embedded stand-ins of outside services, for development and tests only: a Stripe-compatible payment
 * provider (stripe/), a PayPal-compatible one (paypal/), a DNS server with its page (dns/) and Google's
 * OAuth/OpenID Connect endpoints for Google sign-in (google/), PostHog's capture API for analytics
 * forwarding (posthog/), a Slack workspace (slack/), and the task trackers Trello (trello/), ClickUp
 * (clickup/), GitHub (github/), Asana (asana/) and Jira Cloud (jira/). The app
 * imports this package dynamically, only outside production and without real keys (apps/server app.ts);
 * no production code path reaches it (apps/server/src/stand-ins.imports.test.ts).
 */
export { type AsanaDevOptions, asanaDevRoutes, asanaSignature } from "./asana/asana-dev.routes.ts";
export { type ClickupDevOptions, clickupDevRoutes, clickupSignature } from "./clickup/clickup-dev.routes.ts";
export { dnsDevRoutes } from "./dns/dns-dev.routes.ts";
export { type DevDnsServer, DnsRecordConflict, startDevDnsServer } from "./dns/dns-dev.server.ts";
export { type GithubDevOptions, githubDevRoutes, githubSignature } from "./github/github-dev.routes.ts";
export { type GoogleDevOptions, googleDevRoutes } from "./google/google-dev.routes.ts";
export { type JiraDevOptions, jiraDevRoutes, jiraWebhookToken } from "./jira/jira-dev.routes.ts";
export { paypalDevRoutes } from "./paypal/paypal-dev.routes.ts";
export { transmissionHeaders } from "./paypal/webhook-signature.ts";
export type { Host } from "./port.ts";
export {
  type CapturedEvent,
  type PosthogDevOptions,
  posthogDevRoutes,
} from "./posthog/posthog-dev.routes.ts";
export {
  SLACK_BOT_USER,
  SLACK_CHANNELS,
  SLACK_TEAM,
  type SlackDevOptions,
  type SlackMessage,
  slackDevRoutes,
  slackSignature,
} from "./slack/slack-dev.routes.ts";
export { paymentsDevIdle, paymentsDevRoutes } from "./stripe/payments-dev.routes.ts";
export { type TrelloDevOptions, trelloDevRoutes, trelloSignature } from "./trello/trello-dev.routes.ts";
