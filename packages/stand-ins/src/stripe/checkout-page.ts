/**
 * The embedded provider's HTML pages: the test checkout, the hosted invoice, and plain messages.
 * Self-contained (inline CSS, no script), in the app's look: a white surface, one red accent for the
 * primary action, Inter or the system font, an 8 px grid.
 */
import { ZERO_DECIMAL_CURRENCIES } from "@redline/shared";

/** Currencies Stripe counts in thousandths (the zero-decimal ones are SPEC §9's, in packages/shared). */
const THREE_DECIMAL = new Set(["bhd", "jod", "kwd", "omr", "tnd"]);

/** An amount in minor units, for people: 1200 usd → "$12.00", 1200 jpy → "¥1,200". */
export function formatAmount(amount: number, currency: string): string {
  const code = currency.toLowerCase();
  const digits = ZERO_DECIMAL_CURRENCIES.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2;
  const major = amount / 10 ** digits;
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: code.toUpperCase(),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(major);
  } catch {
    return `${major.toFixed(digits)} ${code.toUpperCase()}`;
  }
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

const STYLE = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center;
  padding: 32px 16px; background: #fafafa; color: #18181b;
  font: 15px/1.5 Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif; }
main { width: 100%; max-width: 400px; background: #fff; border: 1px solid #e4e4e7; border-radius: 12px;
  padding: 32px; box-shadow: 0 1px 2px rgb(0 0 0 / 4%), 0 8px 24px rgb(0 0 0 / 4%); }
.eyebrow { margin: 0 0 8px; font-size: 12px; letter-spacing: 0.04em; text-transform: uppercase; color: #71717a; }
h1 { margin: 0 0 8px; font-size: 20px; font-weight: 600; }
.amount { margin: 0; font-size: 32px; font-weight: 600; letter-spacing: -0.01em; }
.amount span { font-size: 15px; font-weight: 400; color: #71717a; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 8px 16px; margin: 24px 0; font-size: 14px; }
dt { color: #71717a; }
dd { margin: 0; text-align: right; overflow-wrap: anywhere; }
.note { margin: 0 0 24px; padding: 12px 16px; border-radius: 8px; background: #f4f4f5; color: #52525b; font-size: 13px; }
.alert { margin: 0 0 16px; padding: 12px 16px; border: 1px solid #fecaca; border-radius: 8px; background: #fef2f2;
  color: #b91c1c; font-size: 14px; }
.done { margin: 0; padding: 12px 16px; border: 1px solid #e4e4e7; border-radius: 8px; background: #f4f4f5; font-size: 14px; }
form { margin: 0; }
.actions { display: grid; gap: 8px; }
.secondary { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
button { width: 100%; height: 40px; padding: 0 16px; border: 1px solid #e4e4e7; border-radius: 8px; background: #fff;
  color: #18181b; font: inherit; font-weight: 500; cursor: pointer; }
button:hover { background: #f4f4f5; }
button.primary { border-color: #e5484d; background: #e5484d; color: #fff; }
button.primary:hover { background: #dc3e42; }
button:focus-visible, a:focus-visible { outline: 2px solid #e5484d; outline-offset: 2px; }
.hint { margin: 8px 0 0; font-size: 13px; color: #71717a; }
.back { display: inline-block; margin-top: 24px; color: #71717a; font-size: 14px; text-decoration: none; }
.back:hover { color: #18181b; text-decoration: underline; }
`;

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

const TEST_NOTE = `<p class="note">This is Redline's embedded test provider: no card is charged and no money moves.</p>`;

export const button = (action: string, label: string, primary = false) =>
  `<form method="post" action="${escapeHtml(action)}"><button type="submit"${primary ? ' class="primary"' : ""}>${escapeHtml(label)}</button></form>`;

export interface CheckoutView {
  sessionId: string;
  productName: string;
  amount: number;
  currency: string;
  interval: string;
  email: string | null;
  cancelUrl: string | null;
  error?: string;
}

export function checkoutPage(view: CheckoutView): string {
  const base = `/dev/payments/checkout/${encodeURIComponent(view.sessionId)}`;
  return layout(
    "Redline test checkout",
    `<p class="eyebrow">Redline test checkout</p>
<h1>${escapeHtml(view.productName)}</h1>
<p class="amount">${escapeHtml(formatAmount(view.amount, view.currency))} <span>per ${escapeHtml(view.interval)}</span></p>
<dl>
<dt>Billed to</dt><dd>${escapeHtml(view.email ?? "—")}</dd>
<dt>Renews</dt><dd>Every ${escapeHtml(view.interval)}</dd>
</dl>
${TEST_NOTE}
${view.error ? `<p class="alert" role="alert">${escapeHtml(view.error)}</p>` : ""}
<div class="actions">
${button(`${base}/pay`, "Pay", true)}
<div class="secondary">
${button(`${base}/decline`, "Decline")}
${button(`${base}/requires-action`, "Requires action")}
</div>
</div>
<p class="hint">Decline tries a card that is refused; Requires action leaves the payment waiting for authentication.</p>
${view.cancelUrl ? `<a class="back" href="${escapeHtml(view.cancelUrl)}"><span aria-hidden="true">← </span>Back</a>` : ""}`,
  );
}

export interface InvoiceView {
  invoiceId: string;
  number: string | null;
  amount: number;
  currency: string;
  status: string;
  lines: string[];
  email: string | null;
  returnUrl: string | null;
}

export function invoicePage(view: InvoiceView): string {
  const query = view.returnUrl ? `?return=${encodeURIComponent(view.returnUrl)}` : "";
  const action = `/dev/payments/invoices/${encodeURIComponent(view.invoiceId)}/pay${query}`;
  const state =
    view.status === "open"
      ? `${button(action, "Pay invoice", true)}
<p class="hint">Pays with a test card that succeeds (it becomes the customer's card).</p>`
      : view.status === "paid"
        ? `<p class="done" role="status">Paid, thank you: nothing more to do.</p>`
        : `<p class="alert" role="status">This invoice is ${escapeHtml(view.status)}: it cannot be paid.</p>`;
  return layout(
    "Redline test invoice",
    `<p class="eyebrow">Redline test invoice${view.number ? ` · ${escapeHtml(view.number)}` : ""}</p>
<h1>${view.status === "paid" ? "Paid" : "Amount due"}</h1>
<p class="amount">${escapeHtml(formatAmount(view.amount, view.currency))}</p>
<dl>
${view.lines.map((line) => `<dt>Item</dt><dd>${escapeHtml(line)}</dd>`).join("\n")}
<dt>Billed to</dt><dd>${escapeHtml(view.email ?? "—")}</dd>
</dl>
${TEST_NOTE}
${state}`,
  );
}

/** A page with one message (not found, already paid…), with an optional link onwards. */
export function messagePage(title: string, message: string, link?: { href: string; label: string }): string {
  return layout(
    title,
    `<p class="eyebrow">Redline test payments</p>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
${link ? `<a class="back" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>` : ""}`,
  );
}
