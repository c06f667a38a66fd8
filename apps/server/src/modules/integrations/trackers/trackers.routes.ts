/**
 * A project's task trackers (issue #30; SPEC §2, §7, §8), one set of routes per tracker:
 * - `GET …/integrations/{tracker}/authorize`: where the browser goes to connect (with a signed state);
 * - `POST /api/integrations/{tracker}/connect`: the return route (`/integration/{tracker}`)
 *   hands over the token or code and the state;
 * - `GET …/{tracker}/destinations`, `PUT …/{tracker}` (where cards go, the automatic rule),
 *   `PATCH …/{tracker}` (enable/disable), `DELETE …/{tracker}` (disconnect);
 * - `POST …/{tracker}/cards` ("Create card"), `DELETE …/{tracker}/cards/{cardId}`;
 * - `PATCH …/integrations/github/gate`: GitHub's merge gate on or off (github.gate.ts);
 * - `POST /api/integrations/{tracker}/webhook/{integrationId}`: the tracker's signed webhook (Jira's, not
 *   signed, at `…/{integrationId}/{key}` with a per-integration secret; and the HEAD
 *   Trello checks a callback with, answered by a GET's HEAD; Asana's handshake, its `X-Hook-Secret` echoed).
 * Owner and editors (integrations.policy.ts) on a plan with integrations; the cards' links
 * (`GET …/integrations/cards`) to everyone who sees the project.
 */
import {
  dataAnswer,
  messageAnswer,
  projectIntegrationSchema,
  TRACKER_TYPES,
  type TrackerCard,
  type TrackerContainer,
  trackerCardSchema,
  trackerContainerSchema,
} from "@redline/shared";
import { desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../../context.ts";
import { trackerCards } from "../../../db/schema/index.ts";
import { BadRequestError } from "../../../lib/errors.ts";
import { requestInput } from "../../../lib/operations.ts";
import { policyActorOf } from "../../../lib/policy.ts";
import { route } from "../../../lib/routes.ts";
import { requireActor } from "../../auth/session.ts";
import { loadProject } from "../../project-access/projects.load.ts";
import { loadIntegrationsProject, requireIntegration } from "../integrations.load.ts";
import { authorizeIntegrations } from "../integrations.policy.ts";
import { setMergeGate } from "./github.gate.ts";
import { trackerWebhookRoute } from "./tracker.ts";
import { askTracker, requireTracker } from "./trackers.load.ts";
import {
  acceptTrackerHandshake,
  connectTracker,
  createTrackerCard,
  deleteTrackerCard,
  disconnectTracker,
  presentCard,
  receiveTrackerWebhook,
  saveTrackerSettings,
  setTrackerEnabled,
} from "./trackers.operations.ts";
import { signTrackerState } from "./trackers.state.ts";
import { withTrackerToken } from "./trackers.tokens.ts";

const BASE = "/api/projects/:projectId/integrations";
const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const hookParams = z.object({
  integrationId: z.string().min(1).max(64),
  key: z.string().max(200).optional(),
});
const CARDS_SHOWN = 1000;

export async function trackersRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;

  // A tracker's signature covers the exact bytes sent: its webhook's body stays text in this scope.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) =>
    done(null, body),
  );
  /** The other routes here take JSON objects, parsed from that text. */
  const jsonBody = (request: { body?: unknown }) => {
    if (typeof request.body !== "string" || request.body === "") return request.body;
    try {
      return JSON.parse(request.body) as unknown;
    } catch {
      throw new BadRequestError("The request body must be JSON.", "validation");
    }
  };
  const input = (request: { body?: unknown; params?: unknown }) =>
    requestInput({ body: jsonBody(request), params: request.params });

  app.get(
    `${BASE}/cards`,
    route({
      summary: "The task-tracker cards made from the project's comments, edits and tickets",
      action: "integrations.cards",
      response: dataAnswer(z.array(trackerCardSchema)),
    }),
    async (request): Promise<{ data: TrackerCard[] }> => {
      const actor = await requireActor(request);
      const { projectId } = projectParams.parse(request.params);
      const { access } = await loadProject(db, actor, projectId);
      authorizeIntegrations(policyActorOf(actor, access), "integrations.cards");
      const rows = await db
        .select()
        .from(trackerCards)
        .where(eq(trackerCards.projectId, projectId))
        .orderBy(desc(trackerCards.createdAt))
        .limit(CARDS_SHOWN);
      return { data: rows.map(presentCard) };
    },
  );

  app.patch(
    `${BASE}/github/gate`,
    route({
      summary:
        "Turn GitHub's merge gate on or off (a 'Redline review' status on pull requests previewing a page)",
      action: "integrations.manage",
      response: dataAnswer(projectIntegrationSchema),
    }),
    async (request) => setMergeGate(ctx, await requireActor(request), input(request)),
  );

  for (const tracker of TRACKER_TYPES) {
    const at = `${BASE}/${tracker}`;
    const withTracker = (request: { params?: unknown; body?: unknown }) =>
      Object.assign(input(request), { tracker });

    app.get(
      `${at}/authorize`,
      route({
        summary: `Where to go to connect ${tracker} (the tracker's authorize page, with a signed state)`,
        action: "integrations.manage",
        accepts: ["session"],
        response: dataAnswer(z.strictObject({ url: z.string() })),
      }),
      async (request): Promise<{ data: { url: string } }> => {
        const actor = await requireActor(request);
        const { projectId } = projectParams.parse(request.params);
        await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
        const state = signTrackerState(ctx.config.authSecret, { projectId, userId: actor.user.id, tracker });
        const url = requireTracker(ctx, tracker).authorizeUrl({
          returnUrl: `${ctx.config.appUrl}/integration/${tracker}`,
          state,
        });
        return { data: { url } };
      },
    );

    app.post(
      `/api/integrations/${tracker}/connect`,
      route({
        summary: `Finish connecting ${tracker}: the return route hands over what it gave back and the state`,
        action: "integrations.manage",
        accepts: ["session"],
        // The return route goes on to the project it was connected for.
        response: z.strictObject({
          data: projectIntegrationSchema,
          projectId: z.string(),
          message: z.string(),
        }),
      }),
      async (request) => connectTracker(ctx, await requireActor(request), withTracker(request)),
    );

    app.get(
      `${at}/destinations`,
      route({
        summary: `The ${tracker} boards/lists cards may go to`,
        action: "integrations.manage",
        response: dataAnswer(z.array(trackerContainerSchema)),
      }),
      async (request): Promise<{ data: TrackerContainer[] }> => {
        const actor = await requireActor(request);
        const { projectId } = projectParams.parse(request.params);
        await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
        const row = await requireIntegration(db, projectId, tracker);
        const service = requireTracker(ctx, tracker);
        return {
          data: await askTracker(() =>
            withTrackerToken(ctx, service, row, (token) => service.destinations(token)),
          ),
        };
      },
    );

    app.put(
      at,
      route({
        summary: `Choose where ${tracker} cards go and whether new comments make them`,
        action: "integrations.manage",
        response: dataAnswer(projectIntegrationSchema),
      }),
      async (request) => saveTrackerSettings(ctx, await requireActor(request), withTracker(request)),
    );

    app.patch(
      at,
      route({
        summary: `Enable or disable ${tracker}`,
        action: "integrations.manage",
        response: dataAnswer(projectIntegrationSchema),
      }),
      async (request) => setTrackerEnabled(ctx, await requireActor(request), withTracker(request)),
    );

    app.delete(
      at,
      route({
        summary: `Disconnect ${tracker} (its record, token and webhook deleted)`,
        action: "integrations.manage",
        response: messageAnswer,
      }),
      async (request) => disconnectTracker(ctx, await requireActor(request), withTracker(request)),
    );

    app.post(
      `${at}/cards`,
      route({
        summary: `Create a ${tracker} card from a comment, an edit suggestion or a ticket`,
        action: "integrations.manage",
        response: dataAnswer(trackerCardSchema),
      }),
      async (request, reply) =>
        reply.code(201).send(await createTrackerCard(ctx, await requireActor(request), withTracker(request))),
    );

    app.delete(
      `${at}/cards/:cardId`,
      route({
        summary: `Delete a ${tracker} card (at ${tracker} too)`,
        action: "integrations.manage",
        response: messageAnswer,
      }),
      async (request) => deleteTrackerCard(ctx, await requireActor(request), withTracker(request)),
    );

    // Trello checks a callback with a HEAD before it keeps a webhook (answered by this GET's HEAD route).
    app.get(
      `/api/integrations/${tracker}/webhook/:integrationId`,
      route({
        summary: `${tracker} checks its webhook's callback answers`,
        action: "public",
        accepts: ["signed"],
        response: z.strictObject({ ok: z.literal(true) }),
      }),
      async () => ({ ok: true }),
    );

    app.post(
      trackerWebhookRoute(tracker),
      route({
        summary: `${tracker}'s webhook: a card closed or reopened (signed, or at its secret URL)`,
        action: "public",
        accepts: ["signed"],
        // A handshake is acknowledged; a delivery says how many cards it changed here.
        response: z.union([
          z.strictObject({ ok: z.literal(true) }),
          z.strictObject({ applied: z.number().int() }),
        ]),
      }),
      async (request, reply) => {
        const { integrationId, key } = hookParams.parse(request.params);
        const echo = await acceptTrackerHandshake(ctx, { tracker, integrationId, headers: request.headers });
        if (echo) return reply.headers(echo).send({ ok: true });
        if (typeof request.body !== "string" || request.body === "")
          throw new BadRequestError("A signed JSON body is required.", "invalid-webhook");
        return receiveTrackerWebhook(ctx, {
          tracker,
          integrationId,
          key,
          rawBody: request.body,
          headers: request.headers,
        });
      },
    );
  }
}
