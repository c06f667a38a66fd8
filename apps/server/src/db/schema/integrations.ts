import type {
  CardSubject,
  IntegrationType,
  TrackerType,
  WebhookDeliveryStatus,
  WebhookEvent,
} from "@redline/shared";
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
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { belongsTo, createdAt } from "./columns.ts";
import { comments } from "./comments.ts";
import { pages, projects } from "./projects.ts";
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
    projectId: belongsTo("project_id", () => projects.id),
    type: text("type").$type<IntegrationType>().notNull(),
    config: jsonb("config").$type<Record<string, unknown>>().notNull().default({}),
    secrets: text("secrets"),
    isEnabled: boolean("is_enabled").notNull().default(true),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique("project_integrations_project_type").on(table.projectId, table.type)],
);

/** Where a webhook integration sends: the panel's one endpoint and each Zapier REST-hook subscription. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    integrationId: belongsTo("integration_id", () => projectIntegrations.id),
    projectId: belongsTo("project_id", () => projects.id),
    url: text("url").notNull(),
    events: text("events").array().$type<WebhookEvent[]>().notNull(),
    source: text("source").$type<"panel" | "zapier">().notNull(),
    createdAt: createdAt(),
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
    endpointId: belongsTo("endpoint_id", () => webhookEndpoints.id),
    projectId: belongsTo("project_id", () => projects.id),
    eventId: bigint("event_id", { mode: "number" }).notNull(),
    event: text("event").$type<WebhookEvent>().notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    responseStatus: integer("response_status"),
    lastError: text("last_error"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: createdAt(),
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

/**
 * A card made in a task tracker (SPEC §3: the external card URL, id and createdBy of a comment entry, an
 * inspect change — and, beyond SPEC, a ticket — per tracker). Made `pending` before the tracker is asked
 * (so a retry after a 500/429 makes the one card, under a lease like a webhook delivery), `created` with
 * the tracker's id and URL. Outlives a disconnect (the link stays); goes with its subject.
 */
export const trackerCards = pgTable(
  "tracker_cards",
  {
    id: text("id").primaryKey(),
    projectId: belongsTo("project_id", () => projects.id),
    tracker: text("tracker").$type<TrackerType>().notNull(),
    subject: text("subject").$type<CardSubject>().notNull(),
    subjectId: text("subject_id").notNull(),
    externalId: text("external_id"),
    url: text("url"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    status: text("status").$type<"pending" | "created">().notNull().default("pending"),
    isClosed: boolean("is_closed").notNull().default(false),
    /** When the tracker's latest applied webhook action happened (an older one arriving late is ignored). */
    trackerChangedAt: timestamp("tracker_changed_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    unique("tracker_cards_subject").on(table.tracker, table.subject, table.subjectId),
    index("tracker_cards_external_idx").on(table.tracker, table.externalId),
    index("tracker_cards_project_idx").on(table.projectId),
  ],
);

export type TrackerCardRow = typeof trackerCards.$inferSelect;
export type ProjectIntegrationRow = typeof projectIntegrations.$inferSelect;
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/**
 * A comment's life in the project's Slack channel (issue #30): the comment's own message (`isRoot`, one per
 * comment) and each reply posted into its thread, made `pending` by the Slack consumer with the text to
 * post and posted by the `slack-messages` queue under a lease (so a retry after an outage posts once), then
 * `posted` with Slack's `ts`; `skipped` when Slack refused for good (a revoked token). A reply written in
 * Slack is kept too (`fromSlack`, posted, its Slack `ts`): a retried Events API delivery adds it once.
 */
export const slackMessages = pgTable(
  "slack_messages",
  {
    id: text("id").primaryKey(),
    projectId: belongsTo("project_id", () => projects.id),
    /** The comment whose thread this is (null: a page's approval or a ticket, which start none). */
    commentId: text("comment_id").references(() => comments.id, { onDelete: "cascade" }),
    isRoot: boolean("is_root").notNull(),
    fromSlack: boolean("from_slack").notNull().default(false),
    channelId: text("channel_id").notNull(),
    text: text("text").notNull(),
    ts: text("ts"),
    status: text("status").$type<"pending" | "posted" | "skipped">().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("slack_messages_root").on(table.commentId).where(sql`${table.isRoot}`),
    uniqueIndex("slack_messages_ts").on(table.channelId, table.ts),
    index("slack_messages_project_idx").on(table.projectId),
  ],
);

export type SlackMessageRow = typeof slackMessages.$inferSelect;

/**
 * GitHub's merge gate (issue #30): a commit of the linked repository as the repository's webhook told of it —
 * the head of an open pull request (`pull_request`) and/or deployed to a preview (`deployment_status`, its
 * environment URL). Once it has both and the preview URL is a page of the project (`pageId`), the commit
 * carries a "Redline review" status following that page, posted by the `merge-gate` queue
 * (github.gate.ts); `postedState` is the state GitHub last accepted. Goes with its integration.
 */
export const mergeGateCommits = pgTable(
  "merge_gate_commits",
  {
    id: text("id").primaryKey(),
    projectId: belongsTo("project_id", () => projects.id),
    integrationId: belongsTo("integration_id", () => projectIntegrations.id),
    /** `owner/name`, as GitHub spells it. */
    repo: text("repo").notNull(),
    sha: text("sha").notNull(),
    pullNumber: integer("pull_number"),
    previewUrl: text("preview_url"),
    pageId: text("page_id").references(() => pages.id, { onDelete: "set null" }),
    postedState: text("posted_state").$type<"pending" | "success">(),
    postedDescription: text("posted_description"),
    postedAt: timestamp("posted_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (table) => [
    unique("merge_gate_commits_commit").on(table.integrationId, table.repo, table.sha),
    index("merge_gate_commits_page_idx").on(table.pageId),
  ],
);

export type MergeGateCommitRow = typeof mergeGateCommits.$inferSelect;
