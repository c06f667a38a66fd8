/**
 * The payment-issue notice (SPEC §2 modals, §4): a calm bar under the header on every signed-in screen
 * but billing and upgrade, while a payment needs the user. Non-blocking; dismissed for the session.
 */
import { TriangleAlert, X } from "lucide-react";
import { useState } from "react";
import { Link, useLocation } from "react-router";
import { PAYMENT_ISSUE_TEXT } from "./billing-rules.ts";
import {
  dismissPaymentNotice,
  isPaymentNoticeDismissed,
  showsPaymentIssueNotice,
} from "./payment-notice-rule.ts";
import "./notices.css";
import { IconButton } from "../../components/icon-button.tsx";

export function PaymentNotice({ paymentIssue }: { paymentIssue: boolean }) {
  const { pathname } = useLocation();
  const [isDismissed, setDismissed] = useState(isPaymentNoticeDismissed);
  if (!showsPaymentIssueNotice({ pathname, paymentIssue, isDismissed })) return null;

  const handleDismiss = () => {
    dismissPaymentNotice();
    setDismissed(true);
  };

  return (
    <section className="page-notice page-notice--warning" aria-label="Payment problem">
      <div className="page-notice__inner">
        <TriangleAlert size={18} aria-hidden className="page-notice__icon" />
        <p className="page-notice__text">{PAYMENT_ISSUE_TEXT}</p>
        <Link className="btn page-notice__action" to="/billing">
          Go to billing
        </Link>
        <IconButton
          className="page-notice__close"
          label="Dismiss payment notice"
          icon={X}
          onClick={handleDismiss}
        />
      </div>
    </section>
  );
}
