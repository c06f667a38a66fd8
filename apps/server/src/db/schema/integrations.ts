import type { IntegrationType, WebhookDeliveryStatus, WebhookEvent } from "@redline/shared";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import { projects } from "./projects.ts";
import { users } from "./users.ts";

/**
 * A project's integrations (SPEC §3: type + config; issue #30). `config` holds what may be shown;
 * `secrets` what may not (signing secrets, tokens), sealed with a key derived from AUTH_SECRET
 * (lib/secret-box.ts). Disconnecting deletes the row, its endpoints and deliveries with it.
 */
export const projectIntegrations = pgTable(
  "project_integrations",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    type: text("type").$type<IntegrationType>().notNull(),
    config: jsonb("config").$type<Record<string, unknown>>().notNull().default({}),
    secrets: text("secrets"),
    isEnabled: boolean("is_enabled").notNull().default(true),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique("project_integrations_project_type").on(table.projectId, table.type)],
);

/** Where a webhook integration sends: the panel's one endpoint and each Zapier REST-hook subscription. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    integrationId: text("integration_id")
      .notNull()
      .references(() => projectIntegrations.id, { onDelete: "cascade" }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events").array().$type<WebhookEvent[]>().notNull(),
    source: text("source").$type<"panel" | "zapier">().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("webhook_endpoints_project_idx").on(table.projectId)],
);

/**
 * One event for one endpoint: made once per (endpoint, ledger event) by the webhooks consumer, then
 * attempted until the receiver says 2xx or the attempts run out. Its id is the `webhook-id` header.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    eventId: bigint("event_id", { mode: "number" }).notNull(),
    event: text("event").$type<WebhookEvent>().notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    responseStatus: integer("response_status"),
    lastError: text("last_error"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (table) => [
    unique("webhook_deliveries_endpoint_event").on(table.endpointId, table.eventId),
    index("webhook_deliveries_project_idx").on(table.projectId, table.createdAt.desc()),
    index("webhook_deliveries_open_idx")
      .on(table.createdAt)
      .where(sql`${table.status} in ('pending', 'retrying')`),
  ],
);

export type ProjectIntegrationRow = typeof projectIntegrations.$inferSelect;
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
