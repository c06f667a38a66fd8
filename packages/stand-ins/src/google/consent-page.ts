/**
 * The stand-in's "Sign in with Google" page: type the test account (any address; the name is optional)
 * and continue, or cancel (the app hears `access_denied`). The request's parameters travel in hidden
 * fields, as the form posts back to the authorization endpoint.
 */
import { escapeHtml, layout } from "../stripe/checkout-page.ts";

export interface ConsentView {
  /** Where the form posts; "" when the request itself is refused (no form). */
  action: string;
  params?: Record<string, string | undefined>;
  email?: string;
  error?: string | null;
}

const FORM_STYLE = `<style>
label { display: block; margin: 0 0 4px; font-size: 14px; font-weight: 500; }
input[type=email], input[type=text] { width: 100%; margin: 0 0 16px; padding: 8px 12px; font: inherit;
  border: 1px solid #d4d4d8; border-radius: 8px; }
.actions { display: flex; gap: 8px; }
.actions button { flex: 1; padding: 10px 16px; font: inherit; border-radius: 8px; border: 1px solid #d4d4d8;
  background: #fff; cursor: pointer; }
.actions button.primary { background: #1a73e8; border-color: #1a73e8; color: #fff; }
</style>`;

export function consentPage(view: ConsentView): string {
  const error = view.error ? `<p class="alert" role="alert">${escapeHtml(view.error)}</p>` : "";
  if (!view.action)
    return layout(
      "Sign in with Google — error",
      `<p class="eyebrow">Google · Redline test sign-in</p><h1>Access blocked</h1>${error}`,
    );
  const hidden = Object.entries(view.params ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value!)}">`)
    .join("\n");
  return layout(
    "Sign in with Google",
    `${FORM_STYLE}<p class="eyebrow">Google · Redline test sign-in</p>
<h1>Choose an account</h1>
<p class="note">This is Redline's embedded Google stand-in: type any address to sign in as that test account. No Google account is used.</p>
${error}
<form method="post" action="${escapeHtml(view.action)}">
${hidden}
<label for="email">Email</label>
<input id="email" name="email" type="email" required autocomplete="off" value="${escapeHtml(view.email ?? "")}">
<label for="name">Name</label>
<input id="name" name="name" type="text" autocomplete="off">
<div class="actions">
<button type="submit" name="decision" value="deny">Cancel</button>
<button type="submit" name="decision" value="allow" class="primary">Continue</button>
</div>
</form>`,
  );
}
