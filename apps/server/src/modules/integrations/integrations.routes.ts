/**
 * A project's integrations (issue #30): the list, enable/disable and disconnect for every type, and the
 * Zapier/Webhook integration's own routes — its URL and events, secret rotation, the delivery log and
 * replay, and Zapier's REST hooks (subscribe/unsubscribe, with an API token). Owner and editors only
 * (integrations.policy.ts), on a plan with integrations (402 otherwise).
 */
import {
  dataAnswer,
  INTEGRATION_TYPES,
  integrationToggleSchema,
  messageAnswer,
  type ProjectIntegrations,
  projectIntegrationSchema,
  projectIntegrationsSchema,
  type WebhookDelivery,
  webhookConfigSchema,
  webhookDeliverySchema,
  webhookSavedSchema,
  webhookSubscribeSchema,
  webhookSubscriptionSchema,
} from "@redline/shared";
import { desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { projectIntegrations, webhookDeliveries, webhookEndpoints } from "../../db/schema/index.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { integrationSecrets, loadIntegrationsProject } from "./integrations.load.ts";
import {
  disconnectIntegration,
  projectParams,
  replayWebhookDelivery,
  rotateWebhookSecret,
  saveWebhook,
  setIntegrationEnabled,
  subscribeWebhook,
  unsubscribeWebhook,
} from "./integrations.operations.ts";
import { presentDelivery, presentIntegration } from "./integrations.presenter.ts";

const BASE = "/api/projects/:projectId/integrations";
const DELIVERY_LOG_SIZE = 50;

export async function integrationsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  app.get(
    BASE,
    route({
      summary: "The project's integrations",
      action: "integrations.read",
      response: dataAnswer(projectIntegrationsSchema),
    }),
    async (request): Promise<{ data: ProjectIntegrations }> => {
      const actor = await requireActor(request);
      const { projectId } = projectParams.parse(request.params);
      await loadIntegrationsProject(ctx, actor, projectId, "integrations.read");
      const [rows, endpoints] = await Promise.all([
        db.select().from(projectIntegrations).where(eq(projectIntegrations.projectId, projectId)),
        db.select().from(webhookEndpoints).where(eq(webhookEndpoints.projectId, projectId)),
      ]);
      const box = integrationSecrets(ctx);
      return {
        data: {
          available: INTEGRATION_TYPES.filter((type) =>
            type === "webhook"
              ? true
              : type === "slack"
                ? Boolean(ctx.config.slack)
                : ctx.config.trackers[type] !== null,
          ),
          integrations: rows.map((row) => presentIntegration(row, endpoints, box.open(row))),
        },
      };
    },
  );

  app.put(
    `${BASE}/webhook`,
    route({
      summary: "Connect the Zapier/Webhook integration, or change its URL and events",
      body: webhookConfigSchema,
      action: "integrations.manage",
      response: webhookSavedSchema,
    }),
    async (request, reply) => {
      const { isNew, ...saved } = await saveWebhook(ctx, await requireActor(request), requestInput(request));
      return reply.code(isNew ? 201 : 200).send(saved);
    },
  );

  app.patch(
    `${BASE}/:type`,
    route({
      summary: "Enable or disable an integration",
      body: integrationToggleSchema,
      action: "integrations.manage",
      response: dataAnswer(projectIntegrationSchema),
    }),
    async (request) => setIntegrationEnabled(ctx, await requireActor(request), requestInput(request)),
  );

  app.delete(
    `${BASE}/:type`,
    route({
      summary: "Disconnect an integration (its record and secrets deleted)",
      action: "integrations.manage",
      response: messageAnswer,
    }),
    async (request) => disconnectIntegration(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    `${BASE}/webhook/secret`,
    route({
      summary: "Rotate the webhook signing secret (the old one signs beside it for 24 hours)",
      action: "integrations.manage",
      response: webhookSavedSchema,
    }),
    async (request) => rotateWebhookSecret(ctx, await requireActor(request), requestInput(request)),
  );

  app.get(
    `${BASE}/webhook/deliveries`,
    route({
      summary: "The webhook's latest deliveries",
      action: "integrations.read",
      response: dataAnswer(z.array(webhookDeliverySchema)),
    }),
    async (request): Promise<{ data: WebhookDelivery[] }> => {
      const actor = await requireActor(request);
      const { projectId } = projectParams.parse(request.params);
      await loadIntegrationsProject(ctx, actor, projectId, "integrations.read");
      const rows = await db
        .select({ delivery: webhookDeliveries, url: webhookEndpoints.url })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(eq(webhookDeliveries.projectId, projectId))
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.eventId))
        .limit(DELIVERY_LOG_SIZE);
      return { data: rows.map(({ delivery, url }) => presentDelivery({ ...delivery, url })) };
    },
  );

  app.post(
    `${BASE}/webhook/deliveries/:deliveryId/replay`,
    route({
      summary: "Send a webhook delivery again",
      action: "integrations.manage",
      response: messageAnswer,
    }),
    async (request) => replayWebhookDelivery(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    `${BASE}/webhook/subscriptions`,
    route({
      summary: "Zapier REST hook: subscribe a target URL to an event",
      body: webhookSubscribeSchema,
      action: "integrations.manage",
      response: dataAnswer(webhookSubscriptionSchema),
    }),
    async (request, reply) =>
      reply.code(201).send(await subscribeWebhook(ctx, await requireActor(request), requestInput(request))),
  );

  app.delete(
    `${BASE}/webhook/subscriptions/:subscriptionId`,
    route({
      summary: "Zapier REST hook: unsubscribe",
      action: "integrations.manage",
      response: messageAnswer,
    }),
    async (request) => unsubscribeWebhook(ctx, await requireActor(request), requestInput(request)),
  );
}
