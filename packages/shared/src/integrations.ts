/**
 * Project integrations (SPEC §3: a project's integration records, each a type and a config; issue #30).
 * Only the types that work are listed: a screen never offers what the product does not do.
 */
import { z } from "zod";

/** The integration types this build connects (Slack and the task trackers come with their stand-ins). */
export const INTEGRATION_TYPES = [
  "webhook",
  "slack",
  "trello",
  "clickup",
  "github",
  "asana",
  "jira",
] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const integrationTypeSchema = z.enum(INTEGRATION_TYPES);

/** SPEC §8's texts. */
export const INTEGRATION_MESSAGES = {
  webhookConnected: "Zapier/Webhook connected successfully.",
  webhookUpdated: "Zapier/Webhook configuration updated successfully.",
  webhookDisconnected: "Zapier disconnected successfully.",
  failed: "Something went wrong",
  slackConnected: "Slack connected successfully",
  slackDisconnected: "Slack disconnected successfully.",
  slackEnabled: "Slack integrations enabled",
  slackDisabled: "Slack integrations disabled",
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

/** PUT …/integrations/slack: the channel Redline posts to (one of GET …/slack/channels). */
export const slackChannelSchema = z
  .object({
    channelId: z
      .string()
      .trim()
      .min(1, "Choose a channel.")
      .max(40)
      .regex(/^[A-Z0-9]+$/, "Choose a channel."),
  })
  .strict();

/** POST /{projectID}/slack/sync (SPEC §7): a message posted to the chosen channel now. */
export const slackSyncSchema = z
  .object({
    message: z
      .string()
      .trim()
      .min(1, "Write a message.")
      .max(3000, "A message can be at most 3,000 characters."),
  })
  .strict();

export const slackChannelOptionSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  isPrivate: z.boolean(),
});
export type SlackChannelOption = z.infer<typeof slackChannelOptionSchema>;

/** PATCH …/integrations/{type}: enable or disable without disconnecting. */
export const integrationToggleSchema = z.object({ isEnabled: z.boolean() }).strict();

/** Zapier's REST hooks: subscribe a target URL to one event (Zapier's own field names). */
export const webhookSubscribeSchema = z
  .object({ target_url: webhookUrlSchema, event: webhookEventSchema })
  .strict();

export const webhookSubscriptionSchema = z.strictObject({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  /** `panel`: the one set on the Integrations panel; `zapier`: subscribed through REST hooks. */
  source: z.enum(["panel", "zapier"]),
  createdAt: z.string(),
});
export type WebhookSubscription = z.infer<typeof webhookSubscriptionSchema>;

export const projectIntegrationSchema = z.strictObject({
  id: z.string(),
  type: z.enum(INTEGRATION_TYPES),
  isEnabled: z.boolean(),
  /** A task tracker's: whether it is authorized, where cards go, and the automatic rule. */
  get tracker() {
    return trackerStateSchema.nullable().optional();
  },
  /** The webhook's: the panel's endpoint (null when only Zapier subscribed) and every subscription. */
  webhook: z
    .strictObject({
      url: z.string().nullable(),
      events: z.array(z.enum(WEBHOOK_EVENTS)),
      subscriptions: z.array(webhookSubscriptionSchema),
      /** While a rotated secret still signs (24 h after a rotation), when it stops. */
      previousSecretExpiresAt: z.string().nullable(),
    })
    .nullable(),
  /** Slack's: the workspace installed into and the channel chosen (null until one is). */
  slack: z
    .strictObject({
      teamName: z.string(),
      channelId: z.string().nullable(),
      channelName: z.string().nullable(),
    })
    .nullable(),
  createdAt: z.string(),
  modifiedAt: z.string(),
});
export type ProjectIntegration = z.infer<typeof projectIntegrationSchema>;

export const projectIntegrationsSchema = z.strictObject({
  /** The types one may connect here. */
  available: z.array(z.enum(INTEGRATION_TYPES)),
  integrations: z.array(projectIntegrationSchema),
});
export type ProjectIntegrations = z.infer<typeof projectIntegrationsSchema>;

/** A connect, update or rotation: the record, the SPEC text, and the signing secret when it is new. */
export const webhookSavedSchema = z.strictObject({
  data: projectIntegrationSchema,
  message: z.string(),
  /** `whsec_…`, shown once: on the first connection and on each rotation. */
  secret: z.string().optional(),
});
export type WebhookSaved = z.infer<typeof webhookSavedSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "retrying", "succeeded", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliverySchema = z.strictObject({
  /** Also the `webhook-id` header: the same on every attempt and replay. */
  id: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  url: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/* ——— Task trackers (Trello, ClickUp, GitHub, Asana, Jira; SPEC §2, §3, §8) ——— */

export const TRACKER_TYPES = ["trello", "clickup", "github", "asana", "jira"] as const;
export type TrackerType = (typeof TRACKER_TYPES)[number];
export const trackerTypeSchema = z.enum(TRACKER_TYPES);

/** Each tracker's name as the product writes it. */
export const TRACKER_NAMES: Record<TrackerType, string> = {
  trello: "Trello",
  clickup: "ClickUp",
  github: "GitHub",
  asana: "Asana",
  jira: "Jira",
};

/** What each tracker calls a card, where cards go, and what holds those (the panel's words, the messages'). */
export const TRACKER_TERMS: Record<
  TrackerType,
  { card: string; cards: string; list: string; lists: string; container: string; containers: string }
> = {
  trello: {
    card: "card",
    cards: "cards",
    list: "list",
    lists: "lists",
    container: "board",
    containers: "boards",
  },
  clickup: {
    card: "task",
    cards: "tasks",
    list: "list",
    lists: "lists",
    container: "workspace",
    containers: "workspaces",
  },
  github: {
    card: "issue",
    cards: "issues",
    list: "repository",
    lists: "repositories",
    container: "account",
    containers: "accounts",
  },
  asana: {
    card: "task",
    cards: "tasks",
    list: "project",
    lists: "projects",
    container: "workspace",
    containers: "workspaces",
  },
  // A Jira destination is a project with the issue type its issues are made as (e.g. "Website — Task").
  jira: {
    card: "issue",
    cards: "issues",
    list: "project",
    lists: "projects",
    container: "site",
    containers: "sites",
  },
};

/** SPEC §8's texts for a tracker. */
export const TRACKER_MESSAGES = {
  connected: (tracker: TrackerType) => `${TRACKER_NAMES[tracker]} connected successfully`,
  disconnected: (tracker: TrackerType) => `${TRACKER_NAMES[tracker]} disconnected successfully.`,
  commentAdded: (tracker: TrackerType) => `Comment added to ${TRACKER_NAMES[tracker]}`,
  commentDeleted: (tracker: TrackerType) => `Comment deleted on ${TRACKER_NAMES[tracker]}`,
  editAdded: (tracker: TrackerType) => `Edit added to ${TRACKER_NAMES[tracker]}`,
  editDeleted: (tracker: TrackerType) => `Edit deleted on ${TRACKER_NAMES[tracker]}`,
  failed: "Something went wrong",
  failedLong: "Something went wrong!",
} as const;

/** Where cards go: a Trello board and list, a ClickUp list or an Asana project (with its workspace). */
export const trackerDestinationSchema = z.strictObject({
  /** Trello: the board; ClickUp and Asana: the workspace; GitHub: the repository's owner (a user or organization). */
  containerId: z.string(),
  containerName: z.string(),
  /** GitHub: the repository's name. */
  listId: z.string(),
  listName: z.string(),
});
export type TrackerDestination = z.infer<typeof trackerDestinationSchema>;

export const trackerStateSchema = z.strictObject({
  /** Authorized at the tracker (a token held, sealed). */
  isAuthorized: z.boolean(),
  /** Who authorized it (their display name). */
  account: z.string().nullable(),
  destination: trackerDestinationSchema.nullable(),
  /** New comments make cards by themselves. */
  autoCreate: z.boolean(),
  /** The tracker refused Redline's refresh token (revoked, or the app's access removed): connect again. */
  needsReconnect: z.boolean(),
  /** GitHub's merge gate: pull requests whose preview is a page of the project carry a review status. */
  mergeGate: z.boolean(),
});
export type TrackerState = z.infer<typeof trackerStateSchema>;

/** GitHub's merge gate (beyond SPEC): the commit status's context, its texts, and the switch's answers. */
export const MERGE_GATE = {
  context: "Redline review",
  enabled: "Merge gate turned on.",
  disabled: "Merge gate turned off.",
  approved: "Approved in Redline",
  awaiting: "Waiting for approval in Redline",
  open: (count: number) => `${count} open comment${count === 1 ? "" : "s"} in Redline`,
} as const;

/** GET …/integrations/{tracker}/destinations: what one may choose, containers with their lists. */
export const trackerContainerSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  lists: z.array(z.strictObject({ id: z.string(), name: z.string() })),
});
export type TrackerContainer = z.infer<typeof trackerContainerSchema>;

/** PUT …/integrations/{tracker}: where cards go and the automatic rule. */
export const trackerSettingsSchema = z
  .object({
    containerId: z.string().trim().min(1, "Choose a board.").max(100),
    listId: z.string().trim().min(1, "Choose a list.").max(100),
    autoCreate: z.boolean().default(false),
  })
  .strict();
export type TrackerSettingsInput = z.input<typeof trackerSettingsSchema>;

/** POST /api/integrations/{tracker}/connect: the return route hands over what the tracker gave back. */
export const trackerConnectSchema = z
  .object({
    state: z.string().min(1).max(1000),
    /** Trello: the token from the return URL's fragment. */
    token: z.string().min(1).max(500).optional(),
    /** ClickUp, GitHub, Asana: the authorization code from the return URL's query. */
    code: z.string().min(1).max(500).optional(),
  })
  .strict();

/** What a card is made from. */
export const CARD_SUBJECTS = ["comment", "edit", "ticket"] as const;
export type CardSubject = (typeof CARD_SUBJECTS)[number];

/** POST …/integrations/{tracker}/cards: make a card from a comment thread, an edit suggestion or a ticket. */
export const createCardSchema = z
  .object({
    subject: z.enum(CARD_SUBJECTS),
    /** The comment's, the inspect change's or the ticket's id. */
    id: z.string().min(1).max(64),
  })
  .strict();

/** SPEC §3's external card fields (URL, id, createdBy), one per tracker and thing. */
export const trackerCardSchema = z.strictObject({
  id: z.string(),
  tracker: z.enum(TRACKER_TYPES),
  subject: z.enum(CARD_SUBJECTS),
  subjectId: z.string(),
  /** null while the tracker has not answered yet (it is retried). */
  externalId: z.string().nullable(),
  url: z.string().nullable(),
  createdBy: z.string().nullable(),
  isClosed: z.boolean(),
  status: z.enum(["pending", "created"]),
  createdAt: z.string(),
});
export type TrackerCard = z.infer<typeof trackerCardSchema>;
