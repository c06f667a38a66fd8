import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { PAYMENT_ISSUE_TEXT } from "./billing-rules.ts";
import { PaymentNotice } from "./payment-notice.tsx";
import { showsPaymentIssueNotice } from "./payment-notice-rule.ts";

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const renderAt = (pathname: string, paymentIssue = true) =>
  render(
    <MemoryRouter initialEntries={[pathname]}>
      <PaymentNotice paymentIssue={paymentIssue} />
    </MemoryRouter>,
  );

describe("the payment-issue notice", () => {
  it.each([
    ["/projects", true],
    ["/project/p1/page1", true],
    ["/profile", true],
    ["/offers", true],
    ["/team", true],
    ["/billing", false],
    ["/upgrade", false],
    ["/upgrade/confirm/pro-yearly", false],
  ])("on %s with a payment issue: shown %s", (pathname, shows) => {
    expect(showsPaymentIssueNotice({ pathname, paymentIssue: true, isDismissed: false })).toBe(shows);
    renderAt(pathname);
    expect(screen.queryByText(PAYMENT_ISSUE_TEXT) !== null).toBe(shows);
  });

  it("is not shown without a payment issue", () => {
    renderAt("/projects", false);
    expect(screen.queryByRole("region", { name: "Payment problem" })).toBeNull();
  });

  it("links to billing and stays dismissed for the session", async () => {
    renderAt("/projects");
    const notice = screen.getByRole("region", { name: "Payment problem" });
    expect(notice.querySelector("a")?.getAttribute("href")).toBe("/billing");
    expect(screen.getByRole("link", { name: "Go to billing" })).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Dismiss payment notice" }));
    expect(screen.queryByText(PAYMENT_ISSUE_TEXT)).toBeNull();
    cleanup();
    renderAt("/profile");
    expect(screen.queryByText(PAYMENT_ISSUE_TEXT)).toBeNull();
  });
});
