import { Link, useSearchParams } from "react-router";
import { AuthLayout } from "../features/auth/auth-layout.tsx";
import { ChangeEmailAction } from "../features/auth/change-email-action.tsx";
import { ResetPasswordForm } from "../features/auth/reset-password-form.tsx";
import { VerifyEmailAction } from "../features/auth/verify-email-action.tsx";
import { safeGoto } from "../lib/safe-redirect.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";

/**
 * `/user-action?mode=…&oobCode=…[&continueUrl=…]`: the links in account mails (verification, e-mail
 * change, password reset); a verification goes on to `continueUrl` when it is a path of this app.
 */
export function UserActionPage() {
  const [params] = useSearchParams();
  const mode = params.get("mode");
  const code = params.get("oobCode");
  const title =
    mode === "verifyEmail"
      ? "Verify your email"
      : mode === "verifyAndChangeEmail"
        ? "Confirm your new email"
        : mode === "resetPassword"
          ? "Set a new password"
          : "Link";
  useDocumentTitle(title);

  if (code && mode === "verifyEmail") {
    return (
      <AuthLayout title={title}>
        <VerifyEmailAction token={code} continuePath={safeGoto(params.get("continueUrl"))} />
      </AuthLayout>
    );
  }
  if (code && mode === "verifyAndChangeEmail") {
    return (
      <AuthLayout title={title}>
        <ChangeEmailAction token={code} />
      </AuthLayout>
    );
  }
  if (code && mode === "resetPassword") {
    return (
      <AuthLayout title={title}>
        <ResetPasswordForm token={code} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="This link doesn't work">
      <p className="form-error" role="alert">
        The link is incomplete or not one Redline sends. Open it again from the e-mail, or ask for a new one.
      </p>
      <div className="auth__actions">
        <Link className="btn" to="/">
          Back to sign in
        </Link>
        <Link className="btn btn--ghost" to="/forgot-password">
          Reset password
        </Link>
      </div>
    </AuthLayout>
  );
}
