/**
 * Slack replies coming back (issue #30): a `message` event of the Events API, in a thread whose parent is
 * a comment's message Redline posted, in the workspace and channel the project is connected to, becomes a
 * reply on that comment. Its author is the integration, not a Redline user: a guest identity named after
 * the Slack member ("Sam (Slack)"), recorded with the integration's actor so the Slack consumer does not
 * post it back. The bot's own messages, other apps' (`bot_id`) and edits or deletions (a `subtype`) are
 * not replies; a delivery Slack retries adds the reply once (its `ts` is kept in slack_messages).
 */
import { formatGuestIdentity, MAX_COMMENT_LENGTH } from "@redline/shared";
import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { comments, projectIntegrations, slackMessages } from "../../db/schema/index.ts";
import { createSlackClient, SlackCallError } from "../../integrations/slack/index.ts";
import { newId } from "../../lib/ids.ts";
import { addReply } from "../comments/comments.service.ts";
import { integrationSecrets } from "./integrations.load.ts";

export interface SlackMessageEvent {
  type?: string;
  subtype?: string;
  channel?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  user_profile?: { display_name?: string; real_name?: string };
}

const NAME_MAX = 60;

/** Slack's mrkdwn as plain text: links as their label (or address), mentions as a name, entities undone. */
export function plainText(text: string): string {
  return text
    .replace(/<(?:https?|mailto):[^|>]*\|([^>]*)>/g, "$1")
    .replace(/<((?:https?|mailto):[^>]*)>/g, "$1")
    .replace(/<[@#!][^|>]*\|([^>]*)>/g, "@$1")
    .replace(/<@[^>]*>/g, "@someone")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .trim()
    .slice(0, MAX_COMMENT_LENGTH);
}

/** A reply in one of Redline's threads, added to its comment; "ignored" for anything else. */
export async function receiveSlackReply(
  ctx: AppContext,
  teamId: string,
  event: SlackMessageEvent,
): Promise<"added" | "ignored"> {
  const { db } = ctx.database;
  const { channel, user, ts, thread_ts: threadTs } = event;
  // A subtype is an edit, a deletion, a join…; only a thread broadcast is also a person's reply.
  const isPersonsMessage = !event.bot_id && (!event.subtype || event.subtype === "thread_broadcast");
  const text = plainText(event.text ?? "");
  if (!isPersonsMessage || !channel || !user || !ts || !threadTs || threadTs === ts || !text)
    return "ignored";
  const [found] = await db
    .select({ comment: comments, integration: projectIntegrations })
    .from(slackMessages)
    .innerJoin(comments, eq(comments.id, slackMessages.commentId))
    .innerJoin(
      projectIntegrations,
      and(eq(projectIntegrations.projectId, slackMessages.projectId), eq(projectIntegrations.type, "slack")),
    )
    .where(
      and(
        eq(slackMessages.channelId, channel),
        eq(slackMessages.ts, threadTs),
        eq(slackMessages.isRoot, true),
        eq(projectIntegrations.isEnabled, true),
        sql`${projectIntegrations.config}->>'teamId' = ${teamId}`,
      ),
    );
  if (!found || user === found.integration.config.botUserId) return "ignored";
  const name = (await slackName(ctx, found.integration, event))
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, NAME_MAX);
  const author = {
    guestIdentity: formatGuestIdentity({ avatarIndex: -1, name: `${name} (Slack)` }),
    integration: "slack",
  };
  return db.transaction(async (tx) => {
    const [kept] = await tx
      .insert(slackMessages)
      .values({
        id: newId(),
        projectId: found.comment.projectId,
        commentId: found.comment.id,
        isRoot: false,
        fromSlack: true,
        channelId: channel,
        text,
        ts,
        status: "posted",
      })
      .onConflictDoNothing()
      .returning({ id: slackMessages.id });
    if (!kept) return "ignored"; // delivered again: added the first time
    await addReply(tx, found.comment, author, { comment: text, attachments: [] }, ctx.config.plansEnabled);
    return "added";
  });
}

/** The member's name: from the event when Slack sent it, else asked of Slack, else a plain word. */
async function slackName(
  ctx: AppContext,
  integration: typeof projectIntegrations.$inferSelect,
  event: SlackMessageEvent,
): Promise<string> {
  const given = event.user_profile?.display_name || event.user_profile?.real_name;
  if (given) return given;
  const client = createSlackClient(ctx.config);
  const token = integrationSecrets(ctx).open(integration).botToken;
  if (!client || !token || !event.user) return "Slack user";
  try {
    return await client.userName(token, event.user);
  } catch (error) {
    if (!(error instanceof SlackCallError)) throw error;
    return "Slack user";
  }
}
