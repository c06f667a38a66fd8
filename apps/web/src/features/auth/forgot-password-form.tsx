import { useMutation } from "@tanstack/react-query";
import { MailCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { EmailField, FormError } from "../../components/field.tsx";
import { authCall, authClient } from "../../lib/auth-client.ts";

/** Asks for a reset link. The answer never says whether the address has an account. */
export function ForgotPasswordForm() {
  const [email, setEmail] = useState("");

  const request = useMutation({
    mutationFn: (address: string) =>
      authCall(
        authClient.requestPasswordReset({
          email: address,
          redirectTo: `${window.location.origin}/user-action`,
        }),
      ),
  });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(email.trim());
  };

  if (request.isSuccess) {
    return (
      <div className="auth__notice" role="status">
        <MailCheck className="auth__notice-icon" size={28} aria-hidden />
        <p>
          If an account exists for <strong>{request.variables}</strong>, we sent it a link to reset the
          password. Check your inbox.
        </p>
        <div className="auth__actions">
          <Link className="btn" to="/">
            Back to sign in
          </Link>
        </div>
      </div>
    );
  }

  return (
    <>
      <p className="auth__text">Enter the e-mail address of your account and we'll send you a reset link.</p>
      <form className="auth__form" onSubmit={handleSubmit}>
        <EmailField value={email} onChange={(event) => setEmail(event.target.value)} />
        <FormError error={request.error} />
        <button type="submit" className="btn btn--primary btn--block" disabled={request.isPending}>
          {request.isPending ? "Sending..." : "Send reset link"}
        </button>
      </form>
      <p className="auth__alt">
        Remembered it?{" "}
        <Link className="link" to="/">
          Back to sign in
        </Link>
      </p>
    </>
  );
}
