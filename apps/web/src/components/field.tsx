/**
 * The one form field: a label, its control, an optional hint and an optional error, wired together for
 * assistive technology (the label names the control; hint and error describe it; an error marks it
 * invalid and is announced). Every form builds its labelled inputs from this.
 */
import { MAX_DISPLAY_NAME_LENGTH, MIN_PASSWORD_LENGTH } from "@redline/shared";
import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type TextareaHTMLAttributes,
  useId,
} from "react";
import { errorMessage } from "../lib/auth-client.ts";

/** What the control inside a field must carry. */
export interface FieldControlProps {
  id: string;
  "aria-describedby": string | undefined;
  "aria-invalid": true | undefined;
}

export interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  /** Shown under the control and announced; marks the control invalid. */
  error?: ReactNode;
  /** Extra class on the wrapper. */
  className?: string;
  /** Renders the control with the ids it needs (a custom input, a textarea, an input with a button…). */
  children: (control: FieldControlProps) => ReactNode;
  /** Anything after the hint and error (e.g. a live status line). */
  after?: ReactNode;
}

export function Field({ label, hint, error, className, children, after }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className ? `field ${className}` : "field"}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({ id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined })}
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {after}
    </div>
  );
}

type FieldTextProps = Pick<FieldProps, "label" | "hint" | "error" | "className" | "after">;

export interface TextFieldProps
  extends FieldTextProps,
    Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "className" | "children"> {
  inputRef?: Ref<HTMLInputElement>;
  inputClassName?: string;
}

/** A labelled single-line input. */
export function TextField({
  label,
  hint,
  error,
  className,
  after,
  inputRef,
  inputClassName,
  ...input
}: TextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error} className={className} after={after}>
      {(control) => (
        <input
          ref={inputRef}
          className={inputClassName ? `input ${inputClassName}` : "input"}
          {...input}
          {...control}
        />
      )}
    </Field>
  );
}

/**
 * A labelled input for a web address or a domain: no autocompletion, spelling or capitals; typing clears
 * the field's error (`onValue` is given the text).
 */
export function AddressField({
  onValue,
  onChange,
  ...props
}: Omit<TextFieldProps, "value"> & { value: string; onValue(value: string): void }) {
  return (
    <TextField
      autoComplete="off"
      autoCapitalize="off"
      spellCheck={false}
      inputMode="url"
      {...props}
      onChange={(event) => {
        onValue(event.target.value);
        onChange?.(event);
      }}
    />
  );
}

export interface TextAreaFieldProps
  extends FieldTextProps,
    Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "className" | "children"> {
  textAreaRef?: Ref<HTMLTextAreaElement>;
  inputClassName?: string;
}

/** A labelled multi-line input. */
export function TextAreaField({
  label,
  hint,
  error,
  className,
  after,
  textAreaRef,
  inputClassName,
  ...textarea
}: TextAreaFieldProps) {
  return (
    <Field label={label} hint={hint} error={error} className={className} after={after}>
      {(control) => (
        <textarea
          ref={textAreaRef}
          className={inputClassName ? `input ${inputClassName}` : "input"}
          {...textarea}
          {...control}
        />
      )}
    </Field>
  );
}

type PresetFieldProps = Omit<TextFieldProps, "type" | "label"> & { label?: ReactNode };

/** The e-mail address of an account: required, autofilled. */
export function EmailField({ label = "Email", ...props }: PresetFieldProps) {
  return <TextField label={label} type="email" autoComplete="email" required {...props} />;
}

/** A person's name as others will see it: required, autofilled, at most the contract's length. */
export function NameField(props: Omit<TextFieldProps, "type" | "autoComplete" | "maxLength">) {
  return <TextField autoComplete="name" required maxLength={MAX_DISPLAY_NAME_LENGTH} {...props} />;
}

/**
 * A password: the current one (autofilled by password managers), or a new one with the SPEC's minimum
 * length stated under it.
 */
export function PasswordField({
  label = "Password",
  isNew = false,
  ...props
}: PresetFieldProps & { isNew?: boolean }) {
  return (
    <TextField
      label={label}
      type="password"
      autoComplete={isNew ? "new-password" : "current-password"}
      hint={isNew ? `At least ${MIN_PASSWORD_LENGTH} characters.` : undefined}
      {...props}
    />
  );
}

/** A failed form submission, announced: the request's own message (e.g. a mutation's error). */
export function FormError({ error, children }: { error: unknown; children?: ReactNode }) {
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {errorMessage(error)}
      {children}
    </p>
  );
}
