/**
 * Click-to-rename text (SPEC §1: "rename a project by clicking the card title"). Shows the value as a
 * button; clicking turns it into a labelled input. Enter or leaving the field saves, Escape cancels.
 * Without `onSave` it is plain text. With `heading`, the value is a heading of its own (a list's name, which
 * also names its region) and renaming is a separate pencil button beside it, so the heading is announced as
 * the name alone.
 */
import { Pencil } from "lucide-react";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import "./inline-edit.css";
import { IconButton } from "./icon-button.tsx";

export function InlineEdit({
  value,
  label,
  onSave,
  className = "",
  maxLength = 200,
  allowEmpty = false,
  heading,
}: {
  value: string;
  /** Accessible name of the button and the input, e.g. 'Rename project'. */
  label: string;
  onSave?: (value: string) => void;
  className?: string;
  maxLength?: number;
  /** An empty value is sent as is (the server applies the default title). */
  allowEmpty?: boolean;
  /** Show the value as an `<h2>` with this id and class, and the rename control beside it. */
  heading?: { id: string; className: string };
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const isEditing = draft !== null;

  useEffect(() => {
    if (isEditing) input.current?.select();
  }, [isEditing]);

  if (!onSave && heading)
    return (
      <h2 id={heading.id} className={heading.className}>
        <span className={`inline-edit__text ${className}`}>{value}</span>
      </h2>
    );
  if (!onSave) return <span className={`inline-edit__text ${className}`}>{value}</span>;

  const finish = (save: boolean) => {
    if (draft === null) return;
    const next = draft.trim();
    setDraft(null);
    if (save && next !== value && (next || allowEmpty)) onSave(next);
    requestAnimationFrame(() => button.current?.focus());
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      finish(true);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      finish(false);
    }
  };

  if (isEditing) {
    const field = (
      <input
        ref={input}
        className={`input inline-edit__input ${className}`}
        aria-label={label}
        value={draft}
        maxLength={maxLength}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={handleKeyDown}
        onBlur={() => finish(true)}
      />
    );
    if (!heading) return field;
    return (
      <>
        <h2 id={heading.id} className="visually-hidden">
          {value}
        </h2>
        {field}
      </>
    );
  }

  if (heading)
    return (
      <>
        <h2 id={heading.id} className={heading.className}>
          <span className={`inline-edit__text ${className}`}>{value}</span>
        </h2>
        <IconButton
          className="inline-edit__rename"
          label={`${label} ${value}`}
          icon={Pencil}
          iconSize={14}
          ref={button}
          title={label}
          onClick={() => setDraft(value)}
        />
      </>
    );

  return (
    <button
      ref={button}
      type="button"
      className={`inline-edit__button ${className}`}
      title={label}
      aria-label={`${label}: ${value}`}
      onClick={() => setDraft(value)}
    >
      <span className="inline-edit__text">{value}</span>
      <Pencil className="inline-edit__icon" size={13} aria-hidden />
    </button>
  );
}
