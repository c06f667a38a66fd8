/**
 * The Slack consumer (issue #30): reads the ledger after its durable cursor and, in the cursor's
 * transaction, makes the message an outward event (integration-events.ts) becomes in the project's chosen
 * channel, while the project's Slack integration is enabled — a new comment (its author, text, page title,
 * a link to it and a signed link to the page's screenshot; on a slide: the slide's number, the deck's
 * title and a link to the comment on it), a page approved and a ticket reported as new messages; a reply and a resolution in
 * the comment's thread — with its job (slack.messages.ts posts it). A reply that came from Slack (the
 * integration's actor) is not sent back; a comment that never reached Slack has no thread to go to.
 */
import { MENTION_PATTERN } from "@redline/shared";
import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { pages, projectIntegrations, slackMessages, tickets, users } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import {
  actorOf,
  OUTWARD_TYPES,
  type OutwardEvent,
  type OutwardRecorded,
  outwardEventOf,
} from "./integration-events.ts";
import { screenshotLinkOf } from "./screenshot-link.ts";
import { enqueueSlackMessage } from "./slack.messages.ts";
import { slidePlaceOf } from "./slide-place.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Slack's mrkdwn gives `&`, `<` and `>` a meaning: a person's text shows them as written. */
const escapeMrkdwn = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The text with its mentions (`{@uid}`) as the names Redline shows. */
async function withNames(tx: Tx, text: string): Promise<string> {
  const ids = [...new Set([...text.matchAll(MENTION_PATTERN)].map((match) => match[1]!))];
  if (ids.length === 0) return text;
  const named = new Map(
    (
      await tx.select({ id: users.id, name: users.displayName }).from(users).where(inArray(users.id, ids))
    ).map((user) => [user.id, user.name]),
  );
  return text.replace(MENTION_PATTERN, (_all, id: string) => `@${named.get(id) ?? "someone"}`);
}

/** What a channel is told of, and how: a new message, or a reply in its comment's thread. */
const SAID: Partial<Record<OutwardEvent["type"], "message" | "in-thread">> = {
  "comment.created": "message",
  "comment.replied": "in-thread",
  "comment.resolved": "in-thread",
  "page.approved": "message",
  "ticket.created": "message",
};

/** The message's text: who did what, what they wrote, and a link back. */
async function messageText(ctx: Pick<AppContext, "config">, tx: Tx, mapped: OutwardEvent): Promise<string> {
  const who = `*${escapeMrkdwn((await actorOf(tx, mapped.actor))?.name || "Someone")}*`;
  const { data } = mapped;
  const said = typeof data.text === "string" ? escapeMrkdwn(await withNames(tx, data.text)) : "";
  const open = (url: string) => `<${url}|Open in Redline>`;
  const pageTitle = async () => {
    const [page] = await tx
      .select({ title: pages.title })
      .from(pages)
      .where(eq(pages.id, String(data.pageId)));
    return `*${escapeMrkdwn(page?.title || "a page")}*`;
  };
  switch (mapped.type) {
    case "comment.created": {
      if (typeof data.slideId === "string") {
        // A slide's comment (an illustration project): the slide and its deck, a link to the comment on it.
        const place = await slidePlaceOf(tx, mapped.projectId, data.slideId);
        const slide = place.slideNumber ? `slide ${place.slideNumber}` : "a slide";
        return `${who} commented on ${slide} of *${escapeMrkdwn(place.projectTitle || "a deck")}*:\n${said}\n${open(String(data.url))}`;
      }
      const link = `${ctx.config.appUrl}/project/${mapped.projectId}/${data.pageId}/${data.versionId}/comment?id=${encodeURIComponent(String(data.commentId))}`;
      // The page's screenshot the comment is pinned on, as a signed link (Slack shows it under the message).
      const screenshot = await screenshotLinkOf(ctx.config, tx, String(data.versionId));
      return `${who} commented on ${await pageTitle()}:\n${said}\n${open(link)}${screenshot ? ` · <${screenshot}|Screenshot>` : ""}`;
    }
    case "comment.replied":
      return `${who} replied:\n${said}`;
    case "comment.resolved":
      return `${who} resolved this thread.`;
    case "page.approved":
      return `${who} approved ${await pageTitle()}\n${open(String(data.url))}`;
    default: {
      const [ticket] = await tx
        .select({ title: tickets.title })
        .from(tickets)
        .where(eq(tickets.id, String(data.ticketId)));
      return `${who} reported *${escapeMrkdwn(ticket?.title || "a ticket")}* on the board\n${open(String(data.url))}`;
    }
  }
}

export async function handleSlackEvent(
  ctx: Pick<AppContext, "queue" | "config">,
  tx: Tx,
  event: OutwardRecorded,
) {
  const mapped = outwardEventOf(event, ctx.config.appUrl);
  const said = mapped && SAID[mapped.type];
  // A reply written in Slack is already there.
  if (!mapped || !said || mapped.actor?.integration === "slack") return;
  const [integration] = await tx
    .select({ config: projectIntegrations.config })
    .from(projectIntegrations)
    .where(
      and(
        eq(projectIntegrations.projectId, mapped.projectId),
        eq(projectIntegrations.type, "slack"),
        eq(projectIntegrations.isEnabled, true),
      ),
    );
  const chosen = integration?.config.channelId;
  if (typeof chosen !== "string") return;
  const commentId = typeof mapped.data.commentId === "string" ? mapped.data.commentId : null;
  let channelId = chosen;
  if (said === "in-thread") {
    // In the thread of the comment's message, even if the channel was changed since; a comment that
    // never reached Slack has no thread to go to.
    const [root] = commentId
      ? await tx
          .select({ channelId: slackMessages.channelId })
          .from(slackMessages)
          .where(and(eq(slackMessages.commentId, commentId), eq(slackMessages.isRoot, true)))
      : [];
    if (!root) return;
    channelId = root.channelId;
  }
  const isRoot = said === "message";
  const [made] = await tx
    .insert(slackMessages)
    .values({
      id: newId(),
      projectId: mapped.projectId,
      // A page's approval and a ticket start no Redline thread: nothing replies under them.
      commentId: isRoot && mapped.type !== "comment.created" ? null : commentId,
      isRoot,
      channelId,
      text: await messageText(ctx, tx, mapped),
    })
    .onConflictDoNothing()
    .returning({ id: slackMessages.id });
  if (made) await enqueueSlackMessage(ctx, made.id, { tx });
}

export function startSlackConsumer(ctx: Pick<AppContext, "config" | "queue" | "ledger">): Promise<void> {
  return ctx.ledger.consume<OutwardRecorded>({
    name: "slack",
    accepts: (event): event is OutwardRecorded => OUTWARD_TYPES.has(event.type),
    handle: (tx, event) => handleSlackEvent(ctx, tx, event),
  });
}
