/**
 * Invite someone by e-mail with an access level (SPEC §5 sharing, §6 teams): the address, the access and
 * the submit button on one row. The address is checked before sending; the server's refusal (one's own
 * address, a duplicate, no permission) stays under the field; a plan limit's with the way to upgrade.
 */
import { UserPlus } from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { errorMessage } from "../lib/auth-client.ts";
import { clearSent } from "../lib/clear-sent.ts";
import { Field } from "./field.tsx";
import { isPlanRefusal, PlanLimitText } from "./plan-limit-text.tsx";
import "./invite-form.css";

const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function InviteForm<A extends string>({
  accessOptions,
  defaultAccess,
  submitLabel,
  pendingLabel,
  isPending,
  invite,
  className = "",
}: {
  accessOptions: readonly { value: A; label: string }[];
  defaultAccess: A;
  submitLabel: string;
  pendingLabel: string;
  isPending: boolean;
  /** Resolves when invited; a rejection's message is shown under the field. */
  invite(input: { email: string; access: A }): Promise<unknown>;
  className?: string;
}) {
  const [email, setEmail] = useState("");
  const [access, setAccess] = useState<A>(defaultAccess);
  const [error, setError] = useState<ReactNode>(null);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!EMAIL_PATTERN.test(address)) {
      setError("Enter a valid e-mail address.");
      return;
    }
    setError(null);
    try {
      await invite({ email: address, access });
      // The answer may come after the project's data reloaded and after another address was typed:
      // only the address that was sent goes.
      setEmail(clearSent(email));
    } catch (reason) {
      // A plan limit (collaborators per project) comes with the way up, as the project limit does.
      setError(
        isPlanRefusal(reason) ? <PlanLimitText message={errorMessage(reason)} /> : errorMessage(reason),
      );
    }
  };

  return (
    <form className={`invite-form ${className}`} onSubmit={handleSubmit} noValidate>
      <Field label="Email address" error={error ?? undefined}>
        {(control) => (
          <div className="invite-form__row">
            <input
              className="input invite-form__email"
              type="email"
              autoComplete="off"
              placeholder="name@example.com"
              maxLength={320}
              value={email}
              {...control}
              onChange={(event) => setEmail(event.target.value)}
            />
            <select
              className="input invite-form__access"
              aria-label="Access"
              value={access}
              onChange={(event) => setAccess(event.target.value as A)}
            >
              {accessOptions.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
            <button type="submit" className="btn btn--primary" disabled={isPending || !email.trim()}>
              <UserPlus size={16} aria-hidden /> {isPending ? pendingLabel : submitLabel}
            </button>
          </div>
        )}
      </Field>
    </form>
  );
}
