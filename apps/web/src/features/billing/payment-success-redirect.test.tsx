import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { PaymentSuccessRedirect } from "./payment-success-redirect.tsx";

afterEach(cleanup);

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

const landing = (path: string) => {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/payment-success/:planId" element={<PaymentSuccessRedirect />} />
        <Route path="/billing" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
  return screen.getByTestId("where").textContent;
};

describe("/payment-success/{planID}", () => {
  it("goes to /billing?payment_status=success after a card payment", () => {
    expect(landing("/payment-success/pro-yearly?session_id=cs_1")).toBe("/billing?payment_status=success");
  });

  it("carries PayPal's subscription id along for /billing to look up", () => {
    expect(landing("/payment-success/pro-monthly?provider=paypal&subscription_id=I-ABC123")).toBe(
      "/billing?payment_status=success&paypal_subscription=I-ABC123",
    );
  });
});
