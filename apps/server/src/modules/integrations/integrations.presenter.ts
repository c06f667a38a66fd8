/** Integration rows → the API's contracts; never a secret (those travel only in `WebhookSaved.secret`). */
import {
  type ProjectIntegration,
  TRACKER_TYPES,
  type WebhookDelivery,
  type WebhookSubscription,
} from "@redline/shared";
import type { ProjectIntegrationRow, WebhookDeliveryRow, WebhookEndpointRow } from "../../db/schema/index.ts";
import type { IntegrationSecrets } from "./integrations.load.ts";
import { trackerStateOf } from "./trackers/trackers.load.ts";

export function presentSubscription(row: WebhookEndpointRow): WebhookSubscription {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentIntegration(
  row: ProjectIntegrationRow,
  endpoints: readonly WebhookEndpointRow[],
  secrets: IntegrationSecrets,
): ProjectIntegration {
  const mine = endpoints.filter((endpoint) => endpoint.integrationId === row.id);
  const panel = mine.find((endpoint) => endpoint.source === "panel") ?? null;
  const previousUntil =
    secrets.previousUntil && new Date(secrets.previousUntil) > new Date() ? secrets.previousUntil : null;
  return {
    id: row.id,
    type: row.type,
    isEnabled: row.isEnabled,
    tracker: (TRACKER_TYPES as readonly string[]).includes(row.type) ? trackerStateOf(row) : null,
    webhook:
      row.type === "webhook"
        ? {
            url: panel?.url ?? null,
            events: panel?.events ?? [],
            subscriptions: mine.map(presentSubscription),
            previousSecretExpiresAt: previousUntil,
          }
        : null,
    slack:
      row.type === "slack"
        ? {
            teamName: String(row.config.teamName ?? ""),
            channelId: typeof row.config.channelId === "string" ? row.config.channelId : null,
            channelName: typeof row.config.channelName === "string" ? row.config.channelName : null,
          }
        : null,
    createdAt: row.createdAt.toISOString(),
    modifiedAt: row.modifiedAt.toISOString(),
  };
}

export function presentDelivery(row: WebhookDeliveryRow & { url: string }): WebhookDelivery {
  return {
    id: row.id,
    event: row.event,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}
