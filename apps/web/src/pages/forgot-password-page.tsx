import { AuthLayout } from "../features/auth/auth-layout.tsx";
import { ForgotPasswordForm } from "../features/auth/forgot-password-form.tsx";
import { useDocumentTitle } from "../lib/use-document-title.ts";

export function ForgotPasswordPage() {
  useDocumentTitle("Forgot password");
  return (
    <AuthLayout title="Reset your password">
      <ForgotPasswordForm />
    </AuthLayout>
  );
}
