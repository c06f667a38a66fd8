/**
 * The stand-in's approval page: what a buyer sees at PayPal after "Pay with PayPal" — the plan, the
 * price for the quantity, and Approve or Cancel. Self-contained, in the embedded card checkout's look
 * (payments-dev/checkout-page.ts).
 */
import { button, escapeHtml, formatAmount, layout } from "../stripe/checkout-page.ts";

export interface ApprovalView {
  subscriptionId: string;
  planName: string;
  /** Per period, for the whole quantity, in minor units. */
  amount: number;
  currency: string;
  interval: string;
  quantity: string;
  email: string | null;
}

export function approvalPage(view: ApprovalView): string {
  const base = `/dev/paypal/approve/${encodeURIComponent(view.subscriptionId)}`;
  return layout(
    "Redline test PayPal approval",
    `<p class="eyebrow">PayPal · Redline test approval</p>
<h1>${escapeHtml(view.planName)}</h1>
<p class="amount">${escapeHtml(formatAmount(view.amount, view.currency))} <span>per ${escapeHtml(view.interval)}</span></p>
<dl>
<dt>Quantity</dt><dd>${escapeHtml(view.quantity)}</dd>
<dt>PayPal account</dt><dd>${escapeHtml(view.email ?? "—")}</dd>
<dt>Subscription</dt><dd>${escapeHtml(view.subscriptionId)}</dd>
</dl>
<p class="note">This is Redline's embedded PayPal stand-in: no PayPal account is charged and no money moves.</p>
<div class="actions">
${button(`${base}/approve`, "Approve", true)}
${button(`${base}/cancel`, "Cancel")}
</div>`,
  );
}
