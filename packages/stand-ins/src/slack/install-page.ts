/**
 * The stand-in's Slack install page: "Redline is requesting permission to access the … workspace", with
 * the scopes asked for, Allow or Cancel (the app hears `access_denied`). The request's parameters travel in
 * hidden fields, as the form posts back to the authorize endpoint.
 */
import { escapeHtml, layout } from "../stripe/checkout-page.ts";

export interface InstallView {
  /** Where the form posts; "" when the request itself is refused (no form). */
  action: string;
  params?: Record<string, string | undefined>;
  team?: string;
  error?: string | null;
}

const STYLE = `<style>
ul.scopes { margin: 0 0 16px; padding-left: 20px; font-size: 14px; }
.actions { display: flex; gap: 8px; }
.actions button { flex: 1; padding: 10px 16px; font: inherit; border-radius: 8px; border: 1px solid #d4d4d8;
  background: #fff; cursor: pointer; }
.actions button.primary { background: #007a5a; border-color: #007a5a; color: #fff; }
</style>`;

export function installPage(view: InstallView): string {
  const error = view.error ? `<p class="alert" role="alert">${escapeHtml(view.error)}</p>` : "";
  if (!view.action)
    return layout(
      "Slack — install error",
      `<p class="eyebrow">Slack · Redline test workspace</p><h1>Oops</h1>${error}`,
    );
  const hidden = Object.entries(view.params ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value!)}">`)
    .join("\n");
  const scopes = (view.params?.scope ?? "")
    .split(",")
    .filter(Boolean)
    .map((scope) => `<li>${escapeHtml(scope)}</li>`)
    .join("");
  return layout(
    "Slack — install Redline",
    `${STYLE}<p class="eyebrow">Slack · embedded stand-in</p>
<h1>Redline is requesting permission to access the ${escapeHtml(view.team ?? "")} Slack workspace</h1>
<p class="note">This is Redline's embedded Slack stand-in; no Slack account is used.</p>
<ul class="scopes">${scopes}</ul>
<form method="post" action="${escapeHtml(view.action)}">
${hidden}
<div class="actions">
<button type="submit" name="decision" value="deny">Cancel</button>
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
</div>
</form>`,
  );
}
