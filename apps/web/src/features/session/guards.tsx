/**
 * Route guards (SPEC §2): signed-out visitors on protected paths go to `/?goto={path}`; a user whose
 * e-mail is not verified goes to `/signup`; a verified user on `/` or `/signup` goes on to the app.
 */
import { Navigate, Outlet, useLocation, useSearchParams } from "react-router";
import { ErrorScreen } from "../../components/error-screen.tsx";
import { LoadingView } from "../../components/loading-view.tsx";
import { safeGoto, signInPathFor, signUpPathFor } from "../../lib/safe-redirect.ts";
import { wasSignedOutOnPurpose } from "./sign-out.ts";
import { useMe } from "./use-me.ts";

export function RequireUser() {
  const location = useLocation();
  const { data: me, isPending, isError } = useMe();
  if (isPending) return <LoadingView />;
  if (isError) return <ErrorScreen />;
  if (me === null) {
    const target = wasSignedOutOnPurpose() ? "/" : signInPathFor(`${location.pathname}${location.search}`);
    return <Navigate to={target} replace />;
  }
  // Not verified yet: the sign-up page says so, and keeps where they were going for after.
  if (!me.emailVerified)
    return <Navigate to={signUpPathFor(`${location.pathname}${location.search}`)} replace />;
  return <Outlet />;
}

/** `/` and `/signup`: a verified user goes to `?goto=` (when safe) or `/projects`. */
export function RedirectVerifiedUser() {
  const [params] = useSearchParams();
  const { data: me, isPending } = useMe();
  if (isPending) return <LoadingView />;
  if (me?.emailVerified) return <Navigate to={safeGoto(params.get("goto"))} replace />;
  return <Outlet />;
}
