/**
 * Account Settings → change of e-mail address (SPEC §3 pendingEmail): the new address and the current
 * password; the server mails the new address a link and tells the old one. While a change waits, the
 * pending address shows with Resend and Cancel. A failure reads 'Error: {server text}' (SPEC §8).
 */
import { REQUIRES_RECENT_LOGIN, type User } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { EmailField, PasswordField } from "../../components/field.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { api, isApiError } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { signInPathFor } from "../../lib/safe-redirect.ts";
import { endSession } from "../session/sign-out.ts";
import { refreshMe } from "../session/use-me.ts";

interface Answer {
  message: string;
}

/** SPEC §8: an e-mail change failure shows 'Error: {server text}'. */
const failureText = (error: unknown) => `Error: ${errorMessage(error)}`;

export function EmailChange({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const isPasswordless = user.signupSource === "google";

  const done = async (answer: Answer) => {
    snackbar.success(answer.message);
    await refreshMe(queryClient);
  };
  const request = useMutation({
    mutationFn: () =>
      api<Answer>("/api/me/email-change", {
        method: "POST",
        body: { email: email.trim(), ...(password && { password }) },
      }),
    onSuccess: async (answer) => {
      setEmail("");
      setPassword("");
      await done(answer);
    },
    // 'auth/requires-recent-login' forces a new sign-in (SPEC §8), which comes back here.
    onError: async (error) => {
      if (!isApiError(error) || error.code !== REQUIRES_RECENT_LOGIN) return;
      await endSession(queryClient, { onPurpose: false });
      snackbar.info("For your security, sign in again to change your e-mail address.");
      navigate(signInPathFor("/profile"), { replace: true });
    },
  });
  const resend = useMutation({
    mutationFn: () => api<Answer>("/api/me/email-change/resend", { method: "POST" }),
    onSuccess: done,
  });
  const cancel = useMutation({
    mutationFn: () => api<Answer>("/api/me/email-change", { method: "DELETE" }),
    onSuccess: done,
  });
  const failed = [request, resend, cancel].find((mutation) => mutation.isError);
  const isBusy = request.isPending || resend.isPending || cancel.isPending;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || isBusy) return;
    resend.reset();
    cancel.reset();
    request.mutate();
  };

  return (
    <form className="profile-form" onSubmit={handleSubmit}>
      {user.pendingEmail ? (
        <div className="email-change__pending" role="status">
          <p className="panel__text">
            Waiting for confirmation: <strong>{user.pendingEmail}</strong>. Open the link we sent to that
            address; until then you sign in with {user.email}.
          </p>
          <div className="email-change__pending-actions">
            <button
              type="button"
              className="btn"
              disabled={isBusy}
              onClick={() => {
                request.reset();
                cancel.reset();
                resend.mutate();
              }}
            >
              {resend.isPending ? "Sending..." : "Resend link"}
            </button>
            <button
              type="button"
              className="btn btn--ghost"
              disabled={isBusy}
              onClick={() => {
                request.reset();
                resend.reset();
                cancel.mutate();
              }}
            >
              {cancel.isPending ? "Cancelling..." : "Cancel change"}
            </button>
          </div>
        </div>
      ) : (
        <p className="panel__text">
          You sign in with {user.email}. We send a link to the new address; the change takes effect when you
          open it.
        </p>
      )}
      <EmailField
        label="New email"
        autoComplete="off"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <PasswordField
        label="Your password"
        required={!isPasswordless}
        hint={
          isPasswordless ? "Signed up with Google? Leave it empty; a recent sign-in is enough." : undefined
        }
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      {failed ? (
        <p className="form-error" role="alert">
          {failureText(failed.error)}
        </p>
      ) : null}
      <div className="profile-form__actions">
        <button type="submit" className="btn btn--primary" disabled={isBusy}>
          {request.isPending ? "Sending..." : "Change email"}
        </button>
      </div>
    </form>
  );
}
