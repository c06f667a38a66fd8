import { isValidNewPassword } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router";
import { PasswordField } from "../../components/field.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { authCall, authClient, errorMessage } from "../../lib/auth-client.ts";
import { endSession } from "../session/sign-out.ts";

const PASSWORD_RESET = "Your password has been reset. Sign in with your new password.";

/** Sets a new password from a reset link; a password under 8 characters does nothing (SPEC §5). */
export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");

  const reset = useMutation({
    mutationFn: () => authCall(authClient.resetPassword({ newPassword: password, token })),
    onSuccess: async () => {
      // The server ends every session of the account; the cached user must go too.
      await endSession(queryClient);
      snackbar.success(PASSWORD_RESET);
      navigate("/", { replace: true });
    },
  });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!isValidNewPassword(password) || reset.isPending) return;
    reset.mutate();
  };

  return (
    <>
      <p className="auth__text">Choose a new password for your account.</p>
      <form className="auth__form" onSubmit={handleSubmit}>
        <PasswordField
          label="New password"
          isNew
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {reset.isError ? (
          <p className="form-error" role="alert">
            {errorMessage(reset.error)}. The link may have expired or been used already —{" "}
            <Link className="link" to="/forgot-password">
              request a new one
            </Link>
            .
          </p>
        ) : null}
        <button type="submit" className="btn btn--primary btn--block" disabled={reset.isPending}>
          {reset.isPending ? "Saving..." : "Set new password"}
        </button>
      </form>
    </>
  );
}
