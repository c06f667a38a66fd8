/** The Trello stand-in's pages: the authorize page (client.js's `Trello.authorize`) and a card's page. */
import { escapeHtml, layout } from "../stripe/checkout-page.ts";
import { pageStyle, errorPage as servicePage } from "../tracker-oauth.ts";

const STYLE = pageStyle("#0c66e4");

export const errorPage = servicePage("Trello");

export function authorizePage(view: {
  action: string;
  appName: string;
  scope: string;
  hidden: string;
}): string {
  return layout(
    "Trello — allow access",
    `${STYLE}<p class="eyebrow">Trello · Redline stand-in</p>
<h1>Let ${escapeHtml(view.appName)} use your account?</h1>
<p>It will be able to ${view.scope.includes("write") ? "read and write" : "read"} your boards, lists and cards.</p>
<form method="post" action="${escapeHtml(view.action)}">
${view.hidden}
<label for="member">Your Trello name</label>
<input id="member" type="text" name="member" value="Test member" maxlength="100" required>
<div class="actions"><button type="submit" name="decision" value="deny">Deny</button>
<button class="primary" type="submit" name="decision" value="allow">Allow</button></div>
</form>`,
  );
}

export function cardPage(view: {
  action: string;
  name: string;
  desc: string;
  board: string;
  list: string;
  closed: boolean;
  dueComplete: boolean;
}): string {
  const state = view.closed ? "Archived" : view.dueComplete ? "Complete" : "Open";
  return layout(
    `${view.name} | Trello`,
    `${STYLE}<p class="eyebrow">Trello · ${escapeHtml(view.board)} · ${escapeHtml(view.list)}</p>
<h1>${escapeHtml(view.name)}</h1>
<p role="status">${state}</p>
<pre style="white-space: pre-wrap">${escapeHtml(view.desc)}</pre>
<form method="post" action="${escapeHtml(view.action)}" class="actions">
${
  view.closed
    ? `<button type="submit" name="closed" value="false">Send to board</button>`
    : `<button class="primary" type="submit" name="closed" value="true">Archive</button>`
}
</form>`,
  );
}
