/**
 * The admin's usage chart: one group of bars per day (sign-ups, comments, upgrades started, completed,
 * failed), drawn in SVG at a scale rounded to a readable top, with the same numbers in a table for screen
 * readers and the funnel of the period beside it. No chart library: a handful of rectangles.
 */
import {
  ADMIN_USAGE_SERIES,
  type AdminUsage,
  type AdminUsageSeries,
  upgradeFunnel,
  usageDayLabel,
} from "@redline/shared";

export const SERIES_LABELS: Record<AdminUsageSeries, string> = {
  SignUp: "Sign-ups",
  NewComment: "Comments",
  UpgradeInitiated: "Upgrades started",
  UpgradeCompleted: "Upgrades completed",
  UpgradeFailed: "Upgrades failed",
};

const SERIES_COLORS: Record<AdminUsageSeries, string> = {
  SignUp: "var(--color-info)",
  NewComment: "var(--color-text-muted)",
  UpgradeInitiated: "var(--color-warning)",
  UpgradeCompleted: "var(--color-success)",
  UpgradeFailed: "var(--color-danger)",
};

/** The axis's top: the largest count rounded up to 1, 2 or 5 × a power of ten (at least 1). */
export function chartTop(largest: number): number {
  if (largest <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(largest));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= largest)!;
}

const WIDTH = 720;
const HEIGHT = 200;

export function UsageChart({ usage }: { usage: AdminUsage }) {
  const largest = Math.max(0, ...usage.days.flatMap((day) => ADMIN_USAGE_SERIES.map((s) => day.counts[s])));
  const funnel = upgradeFunnel(usage.totals);
  const isEmpty = largest === 0;
  const top = chartTop(largest);
  const slot = WIDTH / Math.max(1, usage.days.length);
  const bar = Math.max(1, (slot - 2) / ADMIN_USAGE_SERIES.length);
  return (
    <div className="usage">
      <ul className="usage__legend" aria-label="Totals">
        {ADMIN_USAGE_SERIES.map((series) => (
          <li key={series} data-series={series}>
            <span className="usage__swatch" style={{ background: SERIES_COLORS[series] }} aria-hidden />
            {SERIES_LABELS[series]}: <strong>{usage.totals[series]}</strong>
          </li>
        ))}
        <li>
          Upgrade conversion:{" "}
          <strong>{funnel.conversion === null ? "—" : `${Math.round(funnel.conversion * 100)}%`}</strong>
        </li>
      </ul>
      {isEmpty ? (
        <p className="admin__empty">No events in this period yet.</p>
      ) : (
        <svg
          className="usage__chart"
          viewBox={`0 0 ${WIDTH} ${HEIGHT + 20}`}
          role="img"
          aria-label={`Events per day, ${usage.days.length} days; the table below has the numbers`}
        >
          <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} stroke="var(--color-border-strong)" />
          <text x={0} y={12} className="usage__axis">
            {top}
          </text>
          {usage.days.map((day, index) =>
            ADMIN_USAGE_SERIES.map((series, s) => {
              const height = (day.counts[series] / top) * (HEIGHT - 16);
              return day.counts[series] > 0 ? (
                <rect
                  key={`${day.day}-${series}`}
                  x={index * slot + 1 + s * bar}
                  y={HEIGHT - height}
                  width={bar}
                  height={height}
                  fill={SERIES_COLORS[series]}
                >
                  <title>{`${usageDayLabel(day.day)}: ${day.counts[series]} ${SERIES_LABELS[series].toLowerCase()}`}</title>
                </rect>
              ) : null;
            }),
          )}
          {usage.days.map((day, index) =>
            index === 0 || index === usage.days.length - 1 ? (
              <text
                key={day.day}
                x={index === 0 ? 0 : WIDTH}
                y={HEIGHT + 16}
                textAnchor={index === 0 ? "start" : "end"}
                className="usage__axis"
              >
                {usageDayLabel(day.day)}
              </text>
            ) : null,
          )}
        </svg>
      )}
      <details className="usage__table">
        <summary>Numbers per day</summary>
        <table>
          <caption className="visually-hidden">Events per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {ADMIN_USAGE_SERIES.map((series) => (
                <th key={series} scope="col">
                  {SERIES_LABELS[series]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {usage.days.map((day) => (
              <tr key={day.day}>
                <th scope="row">{usageDayLabel(day.day)}</th>
                {ADMIN_USAGE_SERIES.map((series) => (
                  <td key={series}>{day.counts[series]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
