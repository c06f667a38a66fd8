/**
 * Change password. A new password under 8 characters does nothing (SPEC §5). A session older than the
 * server's fresh age must sign in again and comes back to `/profile`.
 */
import { isValidNewPassword, MESSAGES, REQUIRES_RECENT_LOGIN } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { PasswordField } from "../../components/field.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { AuthError, authCall, authClient, errorMessage } from "../../lib/auth-client.ts";
import { signInPathFor } from "../../lib/safe-redirect.ts";
import { endSession } from "../session/sign-out.ts";

export function PasswordForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");

  const change = useMutation({
    mutationFn: () =>
      authCall(authClient.changePassword({ currentPassword, newPassword, revokeOtherSessions: false })),
    onSuccess: () => {
      setCurrentPassword("");
      setNewPassword("");
      snackbar.success(MESSAGES.passwordUpdated);
    },
    onError: async (error) => {
      if (error instanceof AuthError && error.code === REQUIRES_RECENT_LOGIN) {
        await endSession(queryClient, { onPurpose: false });
        snackbar.info("For your security, sign in again to change your password.");
        navigate(signInPathFor("/profile"), { replace: true });
      }
    },
  });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!currentPassword || !isValidNewPassword(newPassword) || change.isPending) return;
    change.mutate();
  };

  const isRecentLoginError = change.error instanceof AuthError && change.error.code === REQUIRES_RECENT_LOGIN;

  return (
    <form className="profile-form" onSubmit={handleSubmit}>
      <PasswordField
        label="Current password"
        value={currentPassword}
        onChange={(event) => setCurrentPassword(event.target.value)}
      />
      <PasswordField
        label="New password"
        isNew
        value={newPassword}
        onChange={(event) => setNewPassword(event.target.value)}
      />
      {change.isError && !isRecentLoginError ? (
        <p className="form-error" role="alert">
          {errorMessage(change.error)}
        </p>
      ) : null}
      <div className="profile-form__actions">
        <button type="submit" className="btn btn--primary" disabled={change.isPending}>
          {change.isPending ? "Updating..." : "Update password"}
        </button>
      </div>
    </form>
  );
}
