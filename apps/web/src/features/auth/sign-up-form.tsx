import { MIN_PASSWORD_LENGTH } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { authCall, authClient, errorMessage } from "../../lib/auth-client.ts";
import { safeGoto } from "../../lib/safe-redirect.ts";
import { resetSignedOutFlag } from "../session/sign-out.ts";
import { refreshMe } from "../session/use-me.ts";
import { GoogleButton } from "./google-button.tsx";

/**
 * E-mail sign-up. The server signs the new user in and mails a verification link; once the cached
 * user is refreshed the sign-up page shows the "verify your e-mail" state.
 */
export function SignUpForm() {
  const id = useId();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");

  const signUp = useMutation({
    mutationFn: async () => {
      await authCall(authClient.signUp.email({ name: name.trim(), email: email.trim(), password }));
      resetSignedOutFlag();
      return refreshMe(queryClient);
    },
  });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    signUp.mutate();
  };

  const signInPath = params.get("goto")
    ? `/?${new URLSearchParams({ goto: safeGoto(params.get("goto")) })}`
    : "/";

  return (
    <>
      <GoogleButton callbackPath={safeGoto(params.get("goto"))} />
      <form className="auth__form" onSubmit={handleSubmit}>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-name`}>
            Full name
          </label>
          <input
            id={`${id}-name`}
            className="input"
            autoComplete="name"
            required
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-email`}>
            Email
          </label>
          <input
            id={`${id}-email`}
            className="input"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-password`}>
            Password
          </label>
          <input
            id={`${id}-password`}
            className="input"
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            aria-describedby={`${id}-password-hint`}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <p id={`${id}-password-hint`} className="field__hint">
            At least {MIN_PASSWORD_LENGTH} characters.
          </p>
        </div>
        {signUp.isError ? (
          <p className="form-error" role="alert">
            {errorMessage(signUp.error)}
          </p>
        ) : null}
        <button type="submit" className="btn btn--primary btn--block" disabled={signUp.isPending}>
          {signUp.isPending ? "Creating account..." : "Create account"}
        </button>
      </form>
      <p className="auth__alt">
        Already have an account?{" "}
        <Link className="link" to={signInPath}>
          Sign in
        </Link>
      </p>
    </>
  );
}
