import { LoadingView } from "../components/loading-view.tsx";
import { AuthLayout } from "../features/auth/auth-layout.tsx";
import { SignUpForm } from "../features/auth/sign-up-form.tsx";
import { VerifyEmailPending } from "../features/auth/verify-email-pending.tsx";
import { useMe } from "../features/session/use-me.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";

/** `/signup` (and the privilege-link variant): the form, or "verify your e-mail" once signed up. */
export function SignUpPage() {
  const { data: me, isPending } = useMe();
  const isWaitingForVerification = Boolean(me && !me.emailVerified);
  useDocumentTitle(isWaitingForVerification ? "Verify your email" : "Sign up");
  if (isPending) return <LoadingView />;
  return (
    <AuthLayout title={isWaitingForVerification ? "Verify your email" : "Create your account"}>
      {me && !me.emailVerified ? <VerifyEmailPending email={me.email} /> : <SignUpForm />}
    </AuthLayout>
  );
}
