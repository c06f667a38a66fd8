/** The currency plans are priced in on /upgrade: one labelled select of the 25 supported currencies. */
import type { Currency } from "@redline/shared";
import { Field } from "../../components/field.tsx";
import { CURRENCY_CHOICES, currencyLabel } from "./billing-rules.ts";

export function CurrencySelect({
  value,
  onChange,
  className,
}: {
  value: Currency;
  onChange(currency: Currency): void;
  className?: string;
}) {
  return (
    <Field label="Currency" className={className}>
      {(control) => (
        <select
          {...control}
          className="input"
          value={value}
          onChange={(event) => onChange(event.target.value as Currency)}
        >
          {CURRENCY_CHOICES.map((currency) => (
            <option key={currency} value={currency}>
              {currencyLabel(currency)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
