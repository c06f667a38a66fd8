import { MESSAGES } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { MailCheck } from "lucide-react";
import { useNavigate, useSearchParams } from "react-router";
import { PendingButton } from "../../components/pending-button.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { authCall, authClient, errorMessage } from "../../lib/auth-client.ts";
import { continuePathFor } from "../../lib/safe-redirect.ts";
import { endSession } from "../session/sign-out.ts";

/** Signed in, e-mail not verified yet: say where the link went, offer to send it again. */
export function VerifyEmailPending({ email }: { email: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // A new link leads on where the first one did (SPEC §2: the URL originally asked for).
  const [params] = useSearchParams();
  const callbackURL = continuePathFor(params.get("goto"));

  const resend = useMutation({
    mutationFn: () =>
      authCall(authClient.sendVerificationEmail({ email, ...(callbackURL && { callbackURL }) })),
    onSuccess: () => snackbar.success(MESSAGES.verificationEmailSent),
    onError: (error) => snackbar.error(errorMessage(error)),
  });

  const handleUseAnotherAccount = async () => {
    await endSession(queryClient);
    navigate("/", { replace: true });
  };

  return (
    <div className="auth__notice">
      <MailCheck className="auth__notice-icon" size={28} aria-hidden />
      <p>
        We sent a verification link to <strong>{email}</strong>. Open it to start using Redline.
      </p>
      <p className="auth__text">Can't find it? Check your spam folder or send the link again.</p>
      <div className="auth__actions">
        <PendingButton
          className="btn btn--primary"
          isPending={resend.isPending}
          pendingLabel="Sending..."
          onClick={() => resend.mutate()}
        >
          Resend verification email
        </PendingButton>
        <button type="button" className="btn btn--ghost" onClick={handleUseAnotherAccount}>
          Use another account
        </button>
      </div>
    </div>
  );
}
