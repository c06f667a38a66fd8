/**
 * The edit panel's small controls. A typed field keeps its own draft while it has the focus (so "1" on
 * the way to "12", or "-" before "-4", is not overwritten by the page's re-measured value) and reports
 * every keystroke; the panel turns the valid ones into edits.
 */
import { useId, useState } from "react";

export function DraftInput({
  label,
  value,
  onValue,
  type = "text",
  list,
  min,
  max,
  step,
  className = "input inspect-field__input",
}: {
  label: string;
  value: string;
  onValue(value: string): void;
  type?: "text" | "number";
  list?: string;
  min?: number;
  max?: number;
  step?: number;
  className?: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <input
      className={className}
      aria-label={label}
      type={type}
      list={list}
      min={min}
      max={max}
      step={step}
      value={draft ?? value}
      onFocus={() => setDraft(value)}
      onBlur={() => setDraft(null)}
      onChange={(event) => {
        setDraft(event.target.value);
        onValue(event.target.value);
      }}
    />
  );
}

/**
 * A choice from a fixed list (SPEC §3 sizes, weights, border styles). A value the page computed that
 * the list lacks is shown as an extra first option, so the control never claims a value it does not have.
 */
export function SelectInput({
  label,
  value,
  options,
  onValue,
}: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onValue(value: string): void;
}) {
  return (
    <select
      className="input inspect-field__input"
      aria-label={label}
      value={value}
      onChange={(event) => onValue(event.target.value)}
    >
      {options.some((option) => option.value === value) ? null : (
        <option value={value}>{value || "—"}</option>
      )}
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

/** A labelled row: the visible label names the control(s) inside for sighted users. */
export function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="inspect-field">
      <span className="inspect-field__label">{label}</span>
      <div className="inspect-field__controls">{children}</div>
    </div>
  );
}

/** A colour: the picker and its CSS text side by side. */
export function ColorField({
  label,
  hex,
  value,
  onValue,
}: {
  label: string;
  /** `#rrggbb` for the picker (black when the value is not a plain colour). */
  hex: string;
  value: string;
  onValue(value: string, options?: { coalesce?: boolean }): void;
}) {
  return (
    <Field label={label}>
      <input
        className="inspect-color"
        type="color"
        aria-label={label}
        value={hex}
        onChange={(event) => onValue(event.target.value, { coalesce: true })}
      />
      <DraftInput
        label={`${label} value`}
        value={value}
        onValue={(next) => onValue(next, { coalesce: true })}
      />
    </Field>
  );
}

/** Four numbers (px) for the sides or corners of a box. */
export function SidesField({
  label,
  names,
  values,
  onValue,
}: {
  label: string;
  /** Accessible names and the properties they edit, in display order. */
  names: readonly { label: string; property: string }[];
  values: Record<string, string>;
  onValue(property: string, value: string): void;
}) {
  const id = useId();
  return (
    <fieldset className="inspect-sides" aria-labelledby={id}>
      <legend id={id} className="inspect-field__label">
        {label}
      </legend>
      {names.map((entry) => (
        <div key={entry.property} className="inspect-sides__item">
          <span className="inspect-sides__short" aria-hidden>
            {entry.label.split(" ").slice(1).join(" ")}
          </span>
          <DraftInput
            label={entry.label}
            type="number"
            value={values[entry.property] ?? ""}
            onValue={(next) => onValue(entry.property, next)}
          />
        </div>
      ))}
    </fieldset>
  );
}
