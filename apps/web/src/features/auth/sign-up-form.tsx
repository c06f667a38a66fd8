import { MIN_PASSWORD_LENGTH } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { EmailField, FormError, NameField, PasswordField } from "../../components/field.tsx";
import { authCall, authClient } from "../../lib/auth-client.ts";
import { continuePathFor, safeGoto } from "../../lib/safe-redirect.ts";
import { resetSignedOutFlag } from "../session/sign-out.ts";
import { refreshMe } from "../session/use-me.ts";
import { GoogleButton } from "./google-button.tsx";

/**
 * E-mail sign-up. The server signs the new user in and mails a verification link; once the cached
 * user is refreshed the sign-up page shows the "verify your e-mail" state.
 */
export function SignUpForm() {
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");

  // Where they were going (an invitation's team or project): the verification link leads on there.
  const callbackURL = continuePathFor(params.get("goto"));
  const signUp = useMutation({
    mutationFn: async () => {
      await authCall(
        authClient.signUp.email({
          name: name.trim(),
          email: email.trim(),
          password,
          ...(callbackURL && { callbackURL }),
        }),
      );
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
        <NameField label="Full name" value={name} onChange={(event) => setName(event.target.value)} />
        <EmailField value={email} onChange={(event) => setEmail(event.target.value)} />
        <PasswordField
          isNew
          required
          minLength={MIN_PASSWORD_LENGTH}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FormError error={signUp.error} />
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
