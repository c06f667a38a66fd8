import { ADMIN_USAGE_SERIES, type AdminUsage, type AdminUsageSeries } from "@redline/shared";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { chartTop, UsageChart } from "./usage-chart.tsx";

afterEach(cleanup);

const counts = (values: Partial<Record<AdminUsageSeries, number>> = {}) =>
  Object.fromEntries(ADMIN_USAGE_SERIES.map((series) => [series, values[series] ?? 0])) as Record<
    AdminUsageSeries,
    number
  >;

function usageOf(days: Partial<Record<AdminUsageSeries, number>>[]): AdminUsage {
  const totals = counts();
  const rows = days.map((values, index) => {
    const day = counts(values);
    for (const series of ADMIN_USAGE_SERIES) totals[series] += day[series];
    return { day: `2025-03-${String(index + 1).padStart(2, "0")}`, counts: day };
  });
  return { days: rows, totals };
}

describe("the usage chart", () => {
  it("rounds the axis up to 1, 2 or 5 times a power of ten", () => {
    expect([0, 1, 2, 3, 7, 10, 11, 26, 180, 501].map(chartTop)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 50, 200, 1000,
    ]);
  });

  it("draws one bar per day and series with events, names each, and gives the totals and the funnel", () => {
    render(
      <UsageChart
        usage={usageOf([
          { SignUp: 2, UpgradeInitiated: 4, UpgradeCompleted: 1 },
          { NewComment: 3, UpgradeFailed: 1 },
        ])}
      />,
    );
    const chart = screen.getByRole("img", { name: /events per day, 2 days/i });
    expect(chart.querySelectorAll("rect")).toHaveLength(5);
    expect(within(chart).getByText("Mar 1: 2 sign-ups")).toBeTruthy();
    expect(within(chart).getByText("Mar 2: 3 comments")).toBeTruthy();
    const totals = screen.getByRole("list", { name: "Totals" });
    expect(totals.textContent).toContain("Sign-ups: 2");
    expect(totals.textContent).toContain("Upgrades started: 4");
    expect(totals.textContent).toContain("Upgrade conversion: 25%");
    const table = screen.getByRole("table");
    expect(within(table).getAllByRole("row")).toHaveLength(3);
  });

  it("says when the period has no events, with no chart and no conversion", () => {
    render(<UsageChart usage={usageOf([{}, {}, {}])} />);
    expect(screen.getByText("No events in this period yet.")).toBeTruthy();
    expect(screen.queryByRole("img")).toBeNull();
    expect(screen.getByRole("list", { name: "Totals" }).textContent).toContain("Upgrade conversion: —");
  });
});
