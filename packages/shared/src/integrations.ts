/**
 * Project integrations (SPEC §3: a project's integration records, each a type and a config; issue #30).
 * Only the types that work are listed: a screen never offers what the product does not do.
 */
import { z } from "zod";

/** The integration types this build connects (Slack and the task trackers come with their stand-ins). */
export const INTEGRATION_TYPES = ["webhook"] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const integrationTypeSchema = z.enum(INTEGRATION_TYPES);

/** SPEC §8's texts. */
export const INTEGRATION_MESSAGES = {
  webhookConnected: "Zapier/Webhook connected successfully.",
  webhookUpdated: "Zapier/Webhook configuration updated successfully.",
  webhookDisconnected: "Zapier disconnected successfully.",
  failed: "Something went wrong",
  planRequired: "Integrations are not included in this project owner's plan. Upgrade to connect them.",
} as const;

/** What a webhook may be told of; each is a ledger event of the product's (the webhook's `type`). */
export const WEBHOOK_EVENTS = [
  "comment.created",
  "comment.replied",
  "comment.resolved",
  "page.added",
  "page.approved",
  "ticket.created",
  "ticket.replied",
  "ticket.moved",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const webhookEventSchema = z.enum(WEBHOOK_EVENTS, {
  error: () => `An event is one of ${WEBHOOK_EVENTS.join(", ")}.`,
});

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  "comment.created": "Comment created",
  "comment.replied": "Comment replied to",
  "comment.resolved": "Comment resolved",
  "page.added": "Page added",
  "page.approved": "Page approved",
  "ticket.created": "Ticket created",
  "ticket.replied": "Ticket replied to",
  "ticket.moved": "Ticket moved to another list",
};

/** A webhook's target: an absolute http(s) URL without credentials. */
export const webhookUrlSchema = z
  .string()
  .trim()
  .max(2000, "The URL can be at most 2,000 characters.")
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "The URL must be an http(s) address, e.g. https://example.com/hooks/redline.");

/** PUT …/integrations/webhook: connect (first time) or change where and what it sends. */
export const webhookConfigSchema = z
  .object({
    url: webhookUrlSchema,
    events: z
      .array(webhookEventSchema)
      .min(1, "Choose at least one event.")
      .max(WEBHOOK_EVENTS.length)
      .transform((events) => [...new Set(events)]),
  })
  .strict();
export type WebhookConfigInput = z.input<typeof webhookConfigSchema>;

/** PATCH …/integrations/{type}: enable or disable without disconnecting. */
export const integrationToggleSchema = z.object({ isEnabled: z.boolean() }).strict();

/** Zapier's REST hooks: subscribe a target URL to one event (Zapier's own field names). */
export const webhookSubscribeSchema = z
  .object({ target_url: webhookUrlSchema, event: webhookEventSchema })
  .strict();

export interface WebhookSubscription {
  id: string;
  url: string;
  events: WebhookEvent[];
  /** `panel`: the one set on the Integrations panel; `zapier`: subscribed through REST hooks. */
  source: "panel" | "zapier";
  createdAt: string;
}

export interface ProjectIntegration {
  id: string;
  type: IntegrationType;
  isEnabled: boolean;
  /** The webhook's: the panel's endpoint (null when only Zapier subscribed) and every subscription. */
  webhook: {
    url: string | null;
    events: WebhookEvent[];
    subscriptions: WebhookSubscription[];
    /** While a rotated secret still signs (24 h after a rotation), when it stops. */
    previousSecretExpiresAt: string | null;
  } | null;
  createdAt: string;
  modifiedAt: string;
}

export interface ProjectIntegrations {
  /** The types one may connect here. */
  available: IntegrationType[];
  integrations: ProjectIntegration[];
}

/** A connect, update or rotation: the record, the SPEC text, and the signing secret when it is new. */
export interface WebhookSaved {
  data: ProjectIntegration;
  message: string;
  /** `whsec_…`, shown once: on the first connection and on each rotation. */
  secret?: string;
}

export type WebhookDeliveryStatus = "pending" | "retrying" | "succeeded" | "failed";

export interface WebhookDelivery {
  /** Also the `webhook-id` header: the same on every attempt and replay. */
  id: string;
  event: WebhookEvent;
  url: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}
