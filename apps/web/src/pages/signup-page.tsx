/**
 * `/signup` and `/signup/start-privilege/{plan}?token=…` (SPEC §2, §7): the sign-up form, or "verify your
 * e-mail" once signed up. A privilege link is kept (privilege-grant.ts) and taken by the app layout once
 * the user is verified; a verified user opening one goes straight to `/projects`, where it is taken. The
 * link is checked first: one already used or expired is told so, and not kept.
 */
import type { PrivilegeRedeemInput } from "@redline/shared";
import { BadgeCheck } from "lucide-react";
import { useEffect } from "react";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { LoadingView } from "../components/loading-view.tsx";
import { snackbar } from "../components/snackbar-store.ts";
import { AuthLayout } from "../features/auth/auth-layout.tsx";
import { SignUpForm } from "../features/auth/sign-up-form.tsx";
import { VerifyEmailPending } from "../features/auth/verify-email-pending.tsx";
import { usePrivilegeLinkState } from "../features/billing/grant-queries.ts";
import {
  clearStoredPrivilege,
  parsePrivilege,
  privilegePlanName,
  storePrivilege,
} from "../features/billing/privilege-grant.ts";
import { useMe } from "../features/session/use-me.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";

const INVALID_LINK = "This privilege link is not valid.";

export function SignUpPage() {
  return <SignUp privilege={null} />;
}

export function PrivilegeSignUpPage() {
  const { plan } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { data: me, isPending } = useMe();
  const token = params.get("token");
  const isVerified = Boolean(me?.emailVerified);

  useEffect(() => {
    const grant = parsePrivilege(plan, token);
    if (grant) storePrivilege(grant);
    if (!isVerified) return;
    if (!grant) snackbar.error(INVALID_LINK);
    // The app layout takes the stored grant as soon as it shows.
    navigate("/projects", { replace: true });
  }, [plan, token, isVerified, navigate]);

  const grant = parsePrivilege(plan, token);
  const linkState = usePrivilegeLinkState(isPending || isVerified ? null : grant);
  const refusal = linkState.data && !linkState.data.usable ? linkState.data.message : null;
  useEffect(() => {
    if (refusal) clearStoredPrivilege();
  }, [refusal]);

  if (isPending || isVerified || linkState.isLoading) return <LoadingView />;
  // Should the check not answer, the link is promised as before; taking it says what went wrong.
  return <SignUp privilege={grant && !refusal ? grant : { refusal: refusal ?? INVALID_LINK }} />;
}

type PrivilegeOffer = PrivilegeRedeemInput | { refusal: string };

function SignUp({ privilege }: { privilege: PrivilegeOffer | null }) {
  const { data: me, isPending } = useMe();
  const isWaitingForVerification = Boolean(me && !me.emailVerified);
  useDocumentTitle(isWaitingForVerification ? "Verify your email" : "Sign up");
  if (isPending) return <LoadingView />;
  return (
    <AuthLayout title={isWaitingForVerification ? "Verify your email" : "Create your account"}>
      {privilege ? <PrivilegeLine privilege={privilege} isSignedUp={isWaitingForVerification} /> : null}
      {me && !me.emailVerified ? <VerifyEmailPending email={me.email} /> : <SignUpForm />}
    </AuthLayout>
  );
}

function PrivilegeLine({ privilege, isSignedUp }: { privilege: PrivilegeOffer; isSignedUp: boolean }) {
  if ("refusal" in privilege)
    return (
      <p className="auth__privilege auth__privilege--invalid">
        {privilege.refusal}
        {isSignedUp ? null : " You can still sign up; ask for a new link to get the plan."}
      </p>
    );
  const plan = privilegePlanName(privilege.plan);
  return (
    <p className="auth__privilege">
      <BadgeCheck size={18} aria-hidden className="auth__privilege-icon" />
      {isSignedUp
        ? `Verify your email to activate your ${plan} plan.`
        : `Sign up to activate your ${plan} plan.`}
    </p>
  );
}
