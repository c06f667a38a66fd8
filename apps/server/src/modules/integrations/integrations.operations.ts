/**
 * The writes on a project's integrations (ADR 0033: one exported operation each, its input beside it).
 * Each loads the project through integrations.load.ts — the policy's `integrations.manage` and the owner's
 * plan — then writes. A new signing secret is returned once (connect, rotate) and otherwise only sealed.
 */
import { isIP } from "node:net";
import {
  INTEGRATION_MESSAGES,
  integrationToggleSchema,
  integrationTypeSchema,
  type WebhookSaved,
  type WebhookSubscription,
  webhookConfigSchema,
  webhookSubscribeSchema,
} from "@redline/shared";
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import {
  type ProjectIntegrationRow,
  projectIntegrations,
  webhookDeliveries,
  webhookEndpoints,
} from "../../db/schema/index.ts";
import { newWebhookSecret } from "../../integrations/webhooks/index.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { operation, withParams } from "../../lib/operations.ts";
import type { Actor } from "../auth/session.ts";
import {
  integrationSecrets,
  loadIntegrationsProject,
  ROTATION_GRACE_MS,
  requireIntegration,
} from "./integrations.load.ts";
import { presentIntegration, presentSubscription } from "./integrations.presenter.ts";
import { enqueueWebhookDelivery } from "./webhook-delivery.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const typeParams = projectParams.extend({ type: integrationTypeSchema });

/**
 * Refuses a target this server may not call: outside ALLOW_PRIVATE_URLS, a private IP literal or
 * localhost now (a name resolving to a private address is refused when each attempt connects).
 */
async function checkTarget(ctx: AppContext, url: string): Promise<void> {
  if (ctx.config.allowPrivateUrls) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const { isPrivateAddress } = await import("@redline/capture");
  if (host === "localhost" || host.endsWith(".localhost") || (isIP(host) && isPrivateAddress(host)))
    throw new BadRequestError("The URL points to a private network.", "blocked-url");
}

/** The project's webhook integration, made with a new secret when it is missing (returned then). */
async function ensureWebhook(
  ctx: AppContext,
  tx: Tx,
  projectId: string,
  actor: Actor,
): Promise<{ row: ProjectIntegrationRow; secret?: string }> {
  const secret = newWebhookSecret();
  const [made] = await tx
    .insert(projectIntegrations)
    .values({
      id: newId(),
      projectId,
      type: "webhook",
      secrets: integrationSecrets(ctx).seal({ signing: secret }),
      createdBy: actor.user.id,
    })
    .onConflictDoNothing({ target: [projectIntegrations.projectId, projectIntegrations.type] })
    .returning();
  if (made) return { row: made, secret };
  const [row] = await tx
    .select()
    .from(projectIntegrations)
    .where(and(eq(projectIntegrations.projectId, projectId), eq(projectIntegrations.type, "webhook")))
    .for("update");
  return { row: row! };
}

async function presentWebhook(ctx: AppContext, db: Pick<Database, "select">, row: ProjectIntegrationRow) {
  const endpoints = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.integrationId, row.id));
  return presentIntegration(row, endpoints, integrationSecrets(ctx).open(row));
}

/** Connect the webhook (SPEC §8 '…connected successfully.') or change its URL and events ('…updated…'). */
export const saveWebhook = operation(
  "integrations.webhook.save",
  withParams(projectParams, webhookConfigSchema),
  async (ctx, actor: Actor, { projectId, url, events }): Promise<WebhookSaved & { isNew: boolean }> => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    await checkTarget(ctx, url);
    return ctx.database.db.transaction(async (tx) => {
      const { row, secret } = await ensureWebhook(ctx, tx, projectId, actor);
      const panel = await tx
        .update(webhookEndpoints)
        .set({ url, events })
        .where(and(eq(webhookEndpoints.integrationId, row.id), eq(webhookEndpoints.source, "panel")))
        .returning({ id: webhookEndpoints.id });
      if (panel.length === 0)
        await tx
          .insert(webhookEndpoints)
          .values({ id: newId(), integrationId: row.id, projectId, url, events, source: "panel" });
      const [saved] = await tx
        .update(projectIntegrations)
        .set({ modifiedAt: new Date() })
        .where(eq(projectIntegrations.id, row.id))
        .returning();
      const isNew = secret !== undefined;
      return {
        data: await presentWebhook(ctx, tx, saved!),
        message: isNew ? INTEGRATION_MESSAGES.webhookConnected : INTEGRATION_MESSAGES.webhookUpdated,
        ...(isNew && { secret }),
        isNew,
      };
    });
  },
);

/** Enable or disable without disconnecting: a disabled integration sends nothing. */
export const setIntegrationEnabled = operation(
  "integrations.toggle",
  withParams(typeParams, integrationToggleSchema),
  async (ctx, actor: Actor, { projectId, type, isEnabled }) => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    const { db } = ctx.database;
    await requireIntegration(db, projectId, type);
    const [saved] = await db
      .update(projectIntegrations)
      .set({ isEnabled, modifiedAt: new Date() })
      .where(and(eq(projectIntegrations.projectId, projectId), eq(projectIntegrations.type, type)))
      .returning();
    const message =
      type === "slack"
        ? isEnabled
          ? INTEGRATION_MESSAGES.slackEnabled
          : INTEGRATION_MESSAGES.slackDisabled
        : INTEGRATION_MESSAGES.webhookUpdated;
    return { data: await presentWebhook(ctx, db, saved!), message };
  },
);

/** Disconnect: the record goes at once, its secrets, endpoints and delivery log with it. */
export const disconnectIntegration = operation(
  "integrations.disconnect",
  typeParams,
  async (ctx, actor: Actor, { projectId, type }) => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    const deleted = await ctx.database.db
      .delete(projectIntegrations)
      .where(and(eq(projectIntegrations.projectId, projectId), eq(projectIntegrations.type, type)))
      .returning({ id: projectIntegrations.id });
    if (deleted.length === 0)
      throw new NotFoundError("This integration is not connected.", "integration-not-connected");
    return {
      message:
        type === "slack" ? INTEGRATION_MESSAGES.slackDisconnected : INTEGRATION_MESSAGES.webhookDisconnected,
    };
  },
);

/** A new signing secret; the old one keeps signing beside it for 24 hours (two signatures sent). */
export const rotateWebhookSecret = operation(
  "integrations.webhook.rotate",
  projectParams,
  async (ctx, actor: Actor, { projectId }): Promise<WebhookSaved> => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    return ctx.database.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(projectIntegrations)
        .where(and(eq(projectIntegrations.projectId, projectId), eq(projectIntegrations.type, "webhook")))
        .for("update");
      if (!row) throw new NotFoundError("This integration is not connected.", "integration-not-connected");
      const box = integrationSecrets(ctx);
      const secret = newWebhookSecret();
      const [saved] = await tx
        .update(projectIntegrations)
        .set({
          secrets: box.seal({
            signing: secret,
            previousSigning: box.open(row).signing,
            previousUntil: new Date(Date.now() + ROTATION_GRACE_MS).toISOString(),
          }),
          modifiedAt: new Date(),
        })
        .where(eq(projectIntegrations.id, row.id))
        .returning();
      return {
        data: await presentWebhook(ctx, tx, saved!),
        message: INTEGRATION_MESSAGES.webhookUpdated,
        secret,
      };
    });
  },
);

/** Sends a delivery again (same `webhook-id`, a new timestamp and signature), a fresh round of attempts. */
export const replayWebhookDelivery = operation(
  "integrations.webhook.replay",
  projectParams.extend({ deliveryId: z.string().min(1).max(64) }),
  async (ctx, actor: Actor, { projectId, deliveryId }) => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    await ctx.database.db.transaction(async (tx) => {
      const [row] = await tx
        .update(webhookDeliveries)
        .set({ status: "pending", attempts: 0, leaseUntil: null })
        .where(
          and(
            eq(webhookDeliveries.id, deliveryId),
            eq(webhookDeliveries.projectId, projectId),
            inArray(webhookDeliveries.status, ["succeeded", "failed", "retrying"]),
          ),
        )
        .returning({ id: webhookDeliveries.id });
      if (!row) {
        const [exists] = await tx
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.projectId, projectId)));
        if (!exists) throw new NotFoundError("No such delivery.", "delivery-not-found");
        return; // already waiting for its attempt
      }
      await enqueueWebhookDelivery(ctx, row.id, { tx });
    });
    return { message: "Delivery queued again." };
  },
);

/** Zapier REST hooks: subscribe a target URL to one event (the integration made if missing). */
export const subscribeWebhook = operation(
  "integrations.webhook.subscribe",
  withParams(projectParams, webhookSubscribeSchema),
  async (ctx, actor: Actor, { projectId, target_url, event }): Promise<{ data: WebhookSubscription }> => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    await checkTarget(ctx, target_url);
    return ctx.database.db.transaction(async (tx) => {
      const { row } = await ensureWebhook(ctx, tx, projectId, actor);
      const [{ count } = { count: 0 }] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.integrationId, row.id));
      if (count >= 100)
        throw new BadRequestError(
          "A project holds at most 100 webhook subscriptions.",
          "too-many-subscriptions",
        );
      const [made] = await tx
        .insert(webhookEndpoints)
        .values({
          id: newId(),
          integrationId: row.id,
          projectId,
          url: target_url,
          events: [event],
          source: "zapier",
        })
        .returning();
      return { data: presentSubscription(made!) };
    });
  },
);

/** Zapier REST hooks: unsubscribe (Zapier calls it when a Zap is turned off). */
export const unsubscribeWebhook = operation(
  "integrations.webhook.unsubscribe",
  projectParams.extend({ subscriptionId: z.string().min(1).max(64) }),
  async (ctx, actor: Actor, { projectId, subscriptionId }) => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    const deleted = await ctx.database.db
      .delete(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.id, subscriptionId),
          eq(webhookEndpoints.projectId, projectId),
          eq(webhookEndpoints.source, "zapier"),
        ),
      )
      .returning({ id: webhookEndpoints.id });
    if (deleted.length === 0) throw new NotFoundError("No such subscription.", "subscription-not-found");
    return { message: "Unsubscribed." };
  },
);
