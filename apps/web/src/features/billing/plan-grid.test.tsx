import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { PlanGrid } from "./plan-grid.tsx";

afterEach(cleanup);

function renderGrid(currency: "JPY" | "EUR" | "USD", interval: "monthly" | "yearly" = "monthly") {
  render(
    <MemoryRouter>
      <PlanGrid
        product="web"
        interval={interval}
        currency={currency}
        currentPlanName={null}
        subscribedPlan={null}
        promo=""
      />
    </MemoryRouter>,
  );
}

const priceOf = (name: string) =>
  within(screen.getByRole("heading", { level: 3, name }).closest("li")!).getByText(/\d/, {
    selector: ".plan-card__amount",
  }).textContent;

describe("the plan grid in a currency", () => {
  it("shows yen in whole units, with no decimals", () => {
    renderGrid("JPY");
    expect(priceOf("Standard")).toBe("¥2,200");
    expect(priceOf("Pro")).toBe("¥5,800");
    expect(priceOf("Team")).toBe("¥34,600");
    expect(screen.queryByText(/¥[\d,]+\.\d/)).toBeNull();
  });

  it("shows euros with cents, yearly too", () => {
    renderGrid("EUR", "yearly");
    expect(priceOf("Standard")).toBe("€154.00");
    expect(priceOf("Pro")).toBe("€409.00");
    expect(priceOf("Team")).toBe("€2,457.00");
  });

  it("shows the catalog's dollars in USD", () => {
    renderGrid("USD");
    expect(priceOf("Pro")).toBe("$40.00");
  });
});
