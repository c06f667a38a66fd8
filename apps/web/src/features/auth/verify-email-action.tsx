import { MESSAGES } from "@redline/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { LoadingView } from "../../components/loading-view.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { authCall, authClient } from "../../lib/auth-client.ts";
import { signInPathFor } from "../../lib/safe-redirect.ts";
import { refreshMe } from "../session/use-me.ts";
import { RefusedLink } from "./refused-link.tsx";
import { useLinkCode } from "./use-link-code.ts";

/**
 * Applies a verification code from the mail. The server signs the user in as it verifies, so
 * normally they continue straight to `continuePath` — where they were going when they signed up (the
 * link's `continueUrl`), else `/projects`; otherwise the message asks them to sign in, and then on there.
 */
export function VerifyEmailAction({ token, continuePath }: { token: string; continuePath: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const error = useLinkCode(async () => {
    await authCall(authClient.verifyEmail({ query: { token } }));
    const me = await refreshMe(queryClient);
    const isSignedIn = Boolean(me?.emailVerified);
    snackbar.success(isSignedIn ? MESSAGES.emailVerified : MESSAGES.emailVerifiedSignedOut);
    navigate(isSignedIn ? continuePath : signInPathFor(continuePath), { replace: true });
  });

  if (!error) return <LoadingView text="Verifying your e-mail..." />;
  return (
    <RefusedLink
      error={`${error}. This verification link is invalid or has expired.`}
      hint="Sign in and ask for a new verification e-mail from the sign-up page."
      to="/signup"
      label="Send a new link"
    />
  );
}
