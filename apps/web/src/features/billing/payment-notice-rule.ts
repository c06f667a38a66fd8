/**
 * When the payment-issue notice shows (SPEC §2 modals, §4): the server says a payment needs the user,
 * the screen is not billing or upgrade (`showsPaymentNotice`), and it was not dismissed this session.
 */
import { showsPaymentNotice } from "@redline/shared";

export function showsPaymentIssueNotice({
  pathname,
  paymentIssue,
  isDismissed,
}: {
  pathname: string;
  paymentIssue: boolean;
  isDismissed: boolean;
}): boolean {
  return paymentIssue && !isDismissed && showsPaymentNotice(pathname);
}

const DISMISSED_KEY = "redline:payment-notice-dismissed";

export function isPaymentNoticeDismissed(): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === "true";
  } catch {
    return false;
  }
}

export function dismissPaymentNotice(): void {
  try {
    sessionStorage.setItem(DISMISSED_KEY, "true");
  } catch {
    // Storage off (private mode): dismissed until the page reloads.
  }
}
