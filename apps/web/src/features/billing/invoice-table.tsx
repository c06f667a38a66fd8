/**
 * The customer's invoices (GET /api/billing): date, number, amount (in the invoice's own currency),
 * status and the provider's page; a PayPal subscription's payments among them (PayPal has no page).
 */
import { type BillingInvoice, formatMoney } from "@redline/shared";
import { ExternalLink } from "lucide-react";
import { formatDate, invoiceStatusLabel } from "./billing-rules.ts";

const STATUS_TONES: Record<string, string> = {
  paid: "tag tag--success",
  completed: "tag tag--success",
  open: "tag tag--warning",
  uncollectible: "tag tag--danger",
};

export function InvoiceTable({ invoices }: { invoices: BillingInvoice[] }) {
  if (invoices.length === 0) return <p className="panel__text">No invoices yet.</p>;
  return (
    <div className="invoice-table__wrap">
      <table className="invoice-table">
        <caption className="visually-hidden">Invoices</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Number</th>
            <th scope="col" className="invoice-table__amount">
              Amount
            </th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="visually-hidden">Invoice page</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((invoice) => (
            <tr key={invoice.id}>
              <td>{formatDate(invoice.createdAt)}</td>
              <td>{invoice.provider === "second" ? "PayPal payment" : (invoice.number ?? "—")}</td>
              <td className="invoice-table__amount">
                {formatMoney(
                  invoice.status === "paid" || invoice.status === "completed"
                    ? invoice.amountPaid
                    : invoice.amountDue,
                  invoice.currency,
                )}
              </td>
              <td>
                <span className={STATUS_TONES[invoice.status] ?? "tag"}>
                  {invoiceStatusLabel(invoice.status)}
                </span>
              </td>
              <td className="invoice-table__view">
                {invoice.url ? (
                  <a
                    className="link"
                    href={invoice.url}
                    target="_blank"
                    rel="noreferrer"
                    aria-label={`View invoice ${invoice.number ?? formatDate(invoice.createdAt)}`}
                  >
                    View <ExternalLink size={14} aria-hidden />
                  </a>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
