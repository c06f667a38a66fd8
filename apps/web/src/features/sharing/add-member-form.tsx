/**
 * Share by e-mail (SPEC §5): an existing user is added at once, an unknown address gets an invitation
 * mail. Errors (one's own address, a bad address) stay under the field.
 */
import { accessLabel, MEMBER_ACCESS, type MemberAccess } from "@redline/shared";
import { UserPlus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Field } from "../../components/field.tsx";
import { errorMessage } from "../../lib/auth-client.ts";
import { useAddMember } from "./sharing-queries.ts";

const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function AddMemberForm({ projectId }: { projectId: string }) {
  const [email, setEmail] = useState("");
  const [access, setAccess] = useState<MemberAccess>("comment");
  const [error, setError] = useState<string | null>(null);
  const add = useAddMember(projectId);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!EMAIL_PATTERN.test(address)) {
      setError("Enter a valid e-mail address.");
      return;
    }
    setError(null);
    add.mutate(
      { email: address, access },
      { onSuccess: () => setEmail(""), onError: (reason) => setError(errorMessage(reason)) },
    );
  };

  return (
    <form className="share-add" onSubmit={handleSubmit} noValidate>
      <Field label="Email address" error={error ?? undefined}>
        {(control) => (
          <div className="share-add__row">
            <input
              className="input share-add__email"
              type="email"
              autoComplete="off"
              placeholder="name@example.com"
              maxLength={320}
              value={email}
              {...control}
              onChange={(event) => setEmail(event.target.value)}
            />
            <select
              className="input share-add__access"
              aria-label="Access"
              value={access}
              onChange={(event) => setAccess(event.target.value as MemberAccess)}
            >
              {MEMBER_ACCESS.map((option) => (
                <option key={option} value={option}>
                  {accessLabel(option)}
                </option>
              ))}
            </select>
            <button type="submit" className="btn btn--primary" disabled={add.isPending || !email.trim()}>
              <UserPlus size={16} aria-hidden /> {add.isPending ? "Sharing..." : "Share"}
            </button>
          </div>
        )}
      </Field>
    </form>
  );
}
