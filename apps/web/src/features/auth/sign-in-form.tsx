import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { EmailField, FormError, PasswordField } from "../../components/field.tsx";
import { authCall, authClient } from "../../lib/auth-client.ts";
import { safeGoto, signUpPathFor } from "../../lib/safe-redirect.ts";
import { resetSignedOutFlag } from "../session/sign-out.ts";
import { refreshMe } from "../session/use-me.ts";
import { GoogleButton } from "./google-button.tsx";

/** E-mail and password sign-in; afterwards the visitor goes to `?goto=` (when safe) or `/projects`. */
export function SignInForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const goto = safeGoto(params.get("goto"));
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(true);

  const signIn = useMutation({
    mutationFn: async () => {
      await authCall(authClient.signIn.email({ email: email.trim(), password, rememberMe }));
      resetSignedOutFlag();
      return refreshMe(queryClient);
    },
    onSuccess: (me) =>
      navigate(me && !me.emailVerified ? signUpPathFor(params.get("goto")) : goto, { replace: true }),
  });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };

  const signUpPath = signUpPathFor(params.get("goto"));

  return (
    <>
      <GoogleButton callbackPath={goto} />
      <form className="auth__form" onSubmit={handleSubmit}>
        <EmailField value={email} onChange={(event) => setEmail(event.target.value)} />
        <PasswordField required value={password} onChange={(event) => setPassword(event.target.value)} />
        <div className="auth__row">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={rememberMe}
              onChange={(event) => setRememberMe(event.target.checked)}
            />
            Remember me
          </label>
          <Link className="link" to="/forgot-password">
            Forgot password?
          </Link>
        </div>
        <FormError error={signIn.error} />
        <button type="submit" className="btn btn--primary btn--block" disabled={signIn.isPending}>
          {signIn.isPending ? "Signing in..." : "Sign in"}
        </button>
      </form>
      <p className="auth__alt">
        New to Redline?{" "}
        <Link className="link" to={signUpPath}>
          Create an account
        </Link>
      </p>
    </>
  );
}
