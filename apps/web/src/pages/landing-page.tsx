import { useEffect } from "react";
import { AuthLayout } from "../features/auth/auth-layout.tsx";
import { SignInForm } from "../features/auth/sign-in-form.tsx";
import { resetSignedOutFlag } from "../features/session/sign-out.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";

/** `/`: landing and sign-in. */
export function LandingPage() {
  useDocumentTitle("Sign in");
  // After a deliberate sign-out the next protected visit should again remember where it was going.
  useEffect(() => resetSignedOutFlag(), []);
  return (
    <AuthLayout title="Sign in to Redline">
      <SignInForm />
    </AuthLayout>
  );
}
