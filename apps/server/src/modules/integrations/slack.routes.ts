/**
 * The Slack integration's routes (issue #30): connect is Slack's OAuth v2 install — a state signed with a
 * key from AUTH_SECRET and bound to the user, the project and ten minutes, checked on the return route
 * with the session of the same user — the bot token sealed at rest; the workspace's channels and the one
 * chosen; SPEC §7's sync (a message posted to that channel now); and the Events API endpoint, signed by
 * Slack (url_verification, Redline links unfurled for the workspace the project is connected to, and
 * replies in Redline's threads brought back as comment replies: slack.replies.ts).
 * Enable/disable and disconnect are the integrations' common routes (integrations.routes.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  dataAnswer,
  projectIntegrationSchema,
  type SlackChannelOption,
  slackChannelOptionSchema,
  slackChannelSchema,
  slackSyncSchema,
} from "@redline/shared";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { projectIntegrations, projects } from "../../db/schema/index.ts";
import { SlackCallError, type SlackClient, verifySlackSignature } from "../../integrations/slack/index.ts";
import { BadRequestError, UnauthorizedError } from "../../lib/errors.ts";
import { requestInput } from "../../lib/operations.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { integrationSecrets, loadIntegrationsProject } from "./integrations.load.ts";
import { projectParams } from "./integrations.operations.ts";
import {
  callSlack,
  connectedSlack,
  saveSlackInstall,
  setSlackChannel,
  slackOrNotFound,
} from "./slack.operations.ts";
import { receiveSlackReply, type SlackMessageEvent } from "./slack.replies.ts";

const STATE_TTL_MS = 10 * 60 * 1000;

function stateKey(ctx: AppContext) {
  return createHmac("sha256", ctx.config.authSecret).update("slack-oauth-state").digest();
}

export function signSlackState(ctx: AppContext, userId: string, projectId: string, now = Date.now()) {
  const body = Buffer.from(
    JSON.stringify({ u: userId, p: projectId, e: now + STATE_TTL_MS, n: randomBytes(8).toString("hex") }),
  ).toString("base64url");
  return `${body}.${createHmac("sha256", stateKey(ctx)).update(body).digest("base64url")}`;
}

function openSlackState(ctx: AppContext, state: string): { userId: string; projectId: string } | null {
  const [body, mac] = state.split(".");
  if (!body || !mac) return null;
  const wanted = Buffer.from(createHmac("sha256", stateKey(ctx)).update(body).digest("base64url"));
  const given = Buffer.from(mac);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return null;
  try {
    const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as {
      u?: unknown;
      p?: unknown;
      e?: unknown;
    };
    if (typeof claims.u !== "string" || typeof claims.p !== "string" || typeof claims.e !== "number")
      return null;
    if (claims.e < Date.now()) return null;
    return { userId: claims.u, projectId: claims.p };
  } catch {
    return null;
  }
}

const callbackQuery = z.object({
  code: z.string().min(1).max(500).optional(),
  state: z.string().min(1).max(1000),
  error: z.string().max(200).optional(),
});

export async function slackRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const BASE = "/api/projects/:projectId/integrations/slack";

  app.post(
    `${BASE}/connect`,
    route({
      summary: "Start connecting Slack: the install link (OAuth v2)",
      action: "integrations.manage",
      response: dataAnswer(z.strictObject({ url: z.string() })),
    }),
    async (request) => {
      const client = slackOrNotFound(ctx);
      const actor = await requireActor(request);
      const { projectId } = projectParams.parse(request.params);
      await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
      return { data: { url: client.authorizeUrl(signSlackState(ctx, actor.user.id, projectId)) } };
    },
  );

  app.get(
    "/api/integrations/slack/callback",
    route({
      summary: "Slack's OAuth v2 return: the install finished, then /integration/slack/{projectId}",
      action: "integrations.manage",
      accepts: ["session"],
      response: "not-json",
    }),
    async (request, reply) => {
      const client = slackOrNotFound(ctx);
      const query = callbackQuery.safeParse(request.query);
      if (!query.success) throw new BadRequestError("The Slack install link is not valid.", "bad-state");
      const actor = await requireActor(request);
      const state = openSlackState(ctx, query.data.state);
      if (!state)
        throw new BadRequestError("The Slack install link is not valid or has expired.", "bad-state");
      if (state.userId !== actor.user.id)
        throw new UnauthorizedError("The Slack install was started by someone else.", "bad-state");
      const { projectId } = state;
      await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
      if (query.data.error || !query.data.code)
        return reply.redirect(`/project/${encodeURIComponent(projectId)}`, 302);
      const installed = await callSlack(() => client.exchangeCode(query.data.code!));
      await saveSlackInstall(ctx, actor, { projectId, ...installed });
      return reply.redirect(`/integration/slack/${encodeURIComponent(projectId)}`, 302);
    },
  );

  /** The project's Slack record and its bot token, for a manager. */
  async function connected(request: Parameters<typeof requireActor>[0]) {
    const actor = await requireActor(request);
    const { projectId } = projectParams.parse(request.params);
    return { ...(await connectedSlack(ctx, actor, projectId)), projectId };
  }

  app.get(
    `${BASE}/channels`,
    route({
      summary: "The connected Slack workspace's channels",
      action: "integrations.manage",
      response: dataAnswer(z.array(slackChannelOptionSchema)),
    }),
    async (request): Promise<{ data: SlackChannelOption[] }> => {
      const { client, token } = await connected(request);
      return { data: await callSlack(() => client.listChannels(token)) };
    },
  );

  app.put(
    BASE,
    route({
      summary: "Choose the Slack channel Redline posts to",
      body: slackChannelSchema,
      action: "integrations.manage",
      response: dataAnswer(projectIntegrationSchema),
    }),
    async (request) => setSlackChannel(ctx, await requireActor(request), requestInput(request)),
  );

  app.post(
    "/api/projects/:projectId/slack/sync",
    route({
      summary: "Post a message to the project's Slack channel now (SPEC §7 /{projectID}/slack/sync)",
      body: slackSyncSchema,
      action: "integrations.manage",
      response: dataAnswer(z.strictObject({ ts: z.string() })),
    }),
    async (request) => {
      const { client, row, token, projectId } = await connected(request);
      const { message } = slackSyncSchema.parse(request.body);
      const channelId = typeof row.config.channelId === "string" ? row.config.channelId : null;
      if (!channelId) throw new BadRequestError("Choose a Slack channel first.", "no-channel");
      if (!row.isEnabled)
        throw new BadRequestError("The Slack integration is disabled.", "integration-disabled");
      const link = `${ctx.config.appUrl}/project/${projectId}`;
      const posted = await callSlack(() =>
        client.postMessage(token, { channel: channelId, text: `${message}\n<${link}|Open in Redline>` }),
      );
      return { data: { ts: posted.ts }, message: "Message posted to Slack." };
    },
  );

  // The Events API: the signature covers the exact bytes sent, so the body stays text in this scope.
  await app.register(async (events) => {
    events.removeContentTypeParser("application/json");
    events.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) =>
      done(null, body),
    );
    events.post(
      "/api/integrations/slack/events",
      route({
        summary: "Slack's Events API (signed by Slack)",
        action: "public",
        accepts: ["signed"],
        // The URL check's challenge echoed, or an acknowledgement.
        response: z.union([
          z.strictObject({ challenge: z.string() }),
          z.strictObject({ ok: z.literal(true) }),
        ]),
      }),
      async (request, reply) => {
        const client = slackOrNotFound(ctx);
        const header = (name: string) => {
          const value = request.headers[name];
          return typeof value === "string" ? value : undefined;
        };
        const body = typeof request.body === "string" ? request.body : "";
        const signed = verifySlackSignature(
          client.config.signingSecret,
          { signature: header("x-slack-signature"), timestamp: header("x-slack-request-timestamp") },
          body,
        );
        if (!signed) throw new UnauthorizedError("The request's signature does not match.", "bad-signature");
        let payload: SlackPayload;
        try {
          payload = JSON.parse(body) as SlackPayload;
        } catch {
          throw new BadRequestError("The body is not JSON.", "bad-body");
        }
        if (payload.type === "url_verification")
          return reply.send({ challenge: String(payload.challenge ?? "") });
        if (payload.type === "event_callback" && payload.event?.type === "link_shared")
          await unfurlLinks(ctx, client, payload.team_id ?? "", payload.event);
        if (payload.type === "event_callback" && payload.event?.type === "message")
          await receiveSlackReply(ctx, payload.team_id ?? "", payload.event);
        return reply.send({ ok: true });
      },
    );
  });
}

interface SlackPayload {
  type?: string;
  challenge?: unknown;
  team_id?: string;
  event?: SlackMessageEvent & { message_ts?: string; links?: { url?: string }[] };
}

/** Redline project links shared in a workspace a project is connected to, unfurled with its title. */
async function unfurlLinks(
  ctx: AppContext,
  client: SlackClient,
  teamId: string,
  event: NonNullable<SlackPayload["event"]>,
) {
  const { db } = ctx.database;
  if (!event.channel || !event.message_ts) return;
  const unfurls: Record<string, unknown> = {};
  let token: string | undefined;
  for (const link of (event.links ?? []).slice(0, 5)) {
    if (!link.url?.startsWith(`${ctx.config.appUrl}/project/`)) continue;
    const projectId = link.url.slice(`${ctx.config.appUrl}/project/`.length).split(/[/?#]/)[0];
    if (!projectId) continue;
    const [found] = await db
      .select({ title: projects.title, secrets: projectIntegrations.secrets })
      .from(projectIntegrations)
      .innerJoin(projects, eq(projects.id, projectIntegrations.projectId))
      .where(
        and(
          eq(projectIntegrations.projectId, projectId),
          eq(projectIntegrations.type, "slack"),
          eq(projectIntegrations.isEnabled, true),
          sql`${projectIntegrations.config}->>'teamId' = ${teamId}`,
        ),
      );
    if (!found) continue; // not this workspace's project: its title stays private
    token ??= integrationSecrets(ctx).open(found).botToken;
    unfurls[link.url] = { title: found.title, title_link: link.url, text: "A Redline project" };
  }
  if (!token || Object.keys(unfurls).length === 0) return;
  try {
    await client.unfurl(token, { channel: event.channel, ts: event.message_ts, unfurls });
  } catch (error) {
    if (!(error instanceof SlackCallError)) throw error;
    // An unfurl is a courtesy: Slack asks again when the link is shared again.
  }
}
