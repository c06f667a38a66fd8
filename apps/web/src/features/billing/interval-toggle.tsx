/** Monthly or yearly prices: a radio group drawn as a segmented control. */
import type { BillingInterval } from "@redline/shared";
import { useId } from "react";
import { INTERVAL_LABELS } from "./billing-rules.ts";

const INTERVALS: readonly BillingInterval[] = ["monthly", "yearly"];

export function IntervalToggle({
  value,
  onChange,
}: {
  value: BillingInterval;
  onChange(interval: BillingInterval): void;
}) {
  const name = useId();
  return (
    <fieldset className="interval-toggle">
      <legend className="visually-hidden">Billing interval</legend>
      {INTERVALS.map((interval) => (
        <label key={interval} className="interval-toggle__option">
          <input
            className="visually-hidden"
            type="radio"
            name={name}
            value={interval}
            checked={value === interval}
            onChange={() => onChange(interval)}
          />
          {INTERVAL_LABELS[interval]}
        </label>
      ))}
    </fieldset>
  );
}
