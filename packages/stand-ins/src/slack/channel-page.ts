/**
 * The stand-in's channel page: a channel's messages as Slack shows them (mrkdwn's bold and links), each
 * with its thread's replies and a form to reply in the thread as a person of the workspace — which the
 * stand-in then tells the app about through its Events API, signed as Slack signs.
 */
import { escapeHtml, layout } from "../stripe/checkout-page.ts";

export interface ChannelView {
  channel: { id: string; name: string };
  channels: readonly { id: string; name: string }[];
  /** Where each channel's page is, by channel id; where a reply form posts. */
  pageUrl: (channelId: string) => string;
  replyUrl: string;
  messages: readonly { ts: string; thread_ts?: string; text: string; user?: string; bot_id?: string }[];
  names: ReadonlyMap<string, string>;
}

const STYLE = `<style>
main { max-width: 720px; }
nav { display: flex; gap: 12px; margin: 0 0 16px; font-size: 14px; }
article { border-top: 1px solid #e4e4e7; padding: 12px 0; }
.who { font-weight: 600; margin: 0 0 4px; }
.text { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.replies { margin: 8px 0 0 16px; padding-left: 12px; border-left: 2px solid #e4e4e7; }
.replies section { padding: 4px 0; }
form { display: grid; gap: 6px; margin-top: 8px; }
label { font-size: 13px; color: #52525b; display: grid; gap: 2px; }
input, textarea { font: inherit; padding: 6px 8px; border: 1px solid #d4d4d8; border-radius: 6px; }
button { justify-self: start; padding: 6px 12px; font: inherit; border-radius: 6px; border: 1px solid #007a5a;
  background: #007a5a; color: #fff; cursor: pointer; }
</style>`;

const unescapeMrkdwn = (text: string) =>
  text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");

/** mrkdwn as HTML: `<url|label>` links and `*bold*`, everything else as text. */
export function mrkdwnToHtml(text: string): string {
  return text
    .split(/(<[^>]+>)/)
    .map((part) => {
      const link = /^<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>$/.exec(part);
      if (link)
        return `<a href="${escapeHtml(unescapeMrkdwn(link[1]!))}">${escapeHtml(unescapeMrkdwn(link[2] ?? link[1]!))}</a>`;
      return escapeHtml(unescapeMrkdwn(part)).replace(/\*([^*\n]+)\*/g, "<strong>$1</strong>");
    })
    .join("");
}

function message(view: ChannelView, m: ChannelView["messages"][number]) {
  const who = m.bot_id ? "Redline" : (view.names.get(m.user ?? "") ?? m.user ?? "Someone");
  return `<p class="who">${escapeHtml(who)}</p><p class="text">${mrkdwnToHtml(m.text)}</p>`;
}

export function channelPage(view: ChannelView): string {
  const nav = view.channels
    .map((c) =>
      c.id === view.channel.id
        ? `<strong>#${escapeHtml(c.name)}</strong>`
        : `<a href="${escapeHtml(view.pageUrl(c.id))}">#${escapeHtml(c.name)}</a>`,
    )
    .join("");
  const top = view.messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
  const body = top
    .map((m, index) => {
      const replies = view.messages
        .filter((r) => r.thread_ts === m.ts && r.ts !== m.ts)
        .map((r) => `<section aria-label="Reply">${message(view, r)}</section>`)
        .join("");
      return `<article aria-label="Message ${index + 1}">${message(view, m)}
<div class="replies">${replies}
<form method="post" action="${escapeHtml(view.replyUrl)}">
<input type="hidden" name="channel" value="${escapeHtml(view.channel.id)}">
<input type="hidden" name="thread_ts" value="${escapeHtml(m.ts)}">
<label>Your name<input name="userName" value="Sam Slack" required maxlength="80"></label>
<label>Reply in thread<textarea name="text" rows="2" required maxlength="4000"></textarea></label>
<button type="submit">Reply</button>
</form></div></article>`;
    })
    .join("\n");
  return layout(
    `Slack — #${view.channel.name}`,
    `${STYLE}<p class="eyebrow">Slack · embedded stand-in</p>
<nav aria-label="Channels">${nav}</nav>
<h1>#${escapeHtml(view.channel.name)}</h1>
${body || '<p class="note">No messages in this channel yet.</p>'}`,
  );
}
