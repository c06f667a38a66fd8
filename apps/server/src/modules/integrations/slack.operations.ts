/**
 * The Slack integration's writes (issue #30): keeping the workspace an install returned (its bot token
 * sealed at rest) and choosing the channel Redline posts to. The routes (slack.routes.ts) read the request
 * and call these; so can anything else with a principal.
 */
import { INTEGRATION_MESSAGES, slackChannelSchema } from "@redline/shared";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { projectIntegrations } from "../../db/schema/index.ts";
import { createSlackClient, SlackCallError, type SlackClient } from "../../integrations/slack/index.ts";
import { BadRequestError, HttpError, NotFoundError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { operation, withParams } from "../../lib/operations.ts";
import type { Actor } from "../auth/session.ts";
import { integrationSecrets, loadIntegrationsProject, requireIntegration } from "./integrations.load.ts";
import { projectParams } from "./integrations.operations.ts";
import { presentIntegration } from "./integrations.presenter.ts";

/** Slack could not do it (a revoked token, an outage): SPEC §8's text, nothing changed here. */
class SlackUnavailableError extends HttpError {
  constructor(code: string) {
    super(502, `slack-${code}`, INTEGRATION_MESSAGES.failed);
  }
}

/** The server's Slack client, or a 404 where Slack is not configured. */
export function slackOrNotFound(ctx: AppContext): SlackClient {
  const slack = createSlackClient(ctx.config);
  if (!slack) throw new NotFoundError("Slack is not configured on this server.", "slack-not-configured");
  return slack;
}

/** A call to Slack; its refusal becomes SPEC §8's 'Something went wrong' (502). */
export async function callSlack<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SlackCallError) throw new SlackUnavailableError(error.code);
    throw error;
  }
}

/** The project's Slack record and its bot token, for a manager of its integrations. */
export async function connectedSlack(ctx: AppContext, actor: Actor, projectId: string) {
  const client = slackOrNotFound(ctx);
  await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
  const row = await requireIntegration(ctx.database.db, projectId, "slack");
  const token = integrationSecrets(ctx).open(row).botToken;
  if (!token) throw new NotFoundError("This integration is not connected.", "integration-not-connected");
  return { client, row, token };
}

const installInput = z.object({
  projectId: z.string().min(1).max(64),
  teamId: z.string().min(1).max(64),
  teamName: z.string().max(200),
  botToken: z.string().min(1).max(500),
  /** The bot's own member id: its messages coming back as events are not replies to bring here. */
  botUserId: z.string().max(64).nullable(),
});

/** The workspace an install returned: connected (again), enabled, its bot token sealed. */
export const saveSlackInstall = operation(
  "integrations.slack.install",
  installInput,
  async (ctx, actor: Actor, { projectId, teamId, teamName, botToken, botUserId }) => {
    await loadIntegrationsProject(ctx, actor, projectId, "integrations.manage");
    const secrets = integrationSecrets(ctx).seal({ botToken });
    const config = { teamId, teamName, botUserId };
    await ctx.database.db
      .insert(projectIntegrations)
      .values({ id: newId(), projectId, type: "slack", config, secrets, createdBy: actor.user.id })
      .onConflictDoUpdate({
        target: [projectIntegrations.projectId, projectIntegrations.type],
        set: { config, secrets, isEnabled: true, modifiedAt: new Date() },
      });
  },
);

/** The channel Redline posts to: one of the connected workspace's, as Slack lists them now. */
export const setSlackChannel = operation(
  "integrations.slack.channel",
  withParams(projectParams, slackChannelSchema),
  async (ctx, actor: Actor, { projectId, channelId }) => {
    const { client, row, token } = await connectedSlack(ctx, actor, projectId);
    const channel = (await callSlack(() => client.listChannels(token))).find((c) => c.id === channelId);
    if (!channel) throw new BadRequestError("Choose a channel of the connected workspace.", "bad-channel");
    const [saved] = await ctx.database.db
      .update(projectIntegrations)
      .set({
        config: { ...row.config, channelId: channel.id, channelName: channel.name },
        modifiedAt: new Date(),
      })
      .where(eq(projectIntegrations.id, row.id))
      .returning();
    return { data: presentIntegration(saved!, [], {}), message: `Slack channel set to #${channel.name}.` };
  },
);
