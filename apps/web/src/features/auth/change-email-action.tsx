import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { LoadingView } from "../../components/loading-view.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { signInPathFor } from "../../lib/safe-redirect.ts";
import { refreshMe } from "../session/use-me.ts";
import { RefusedLink } from "./refused-link.tsx";
import { useLinkCode } from "./use-link-code.ts";

/**
 * Applies an e-mail change link (`/user-action?mode=verifyAndChangeEmail`): the server makes the new
 * address the account's and says so ('Your email has been verified.', plus ' Please login to continue.'
 * when this browser is signed out); a refused link reads 'Error: {server text}' (SPEC §8).
 */
export function ChangeEmailAction({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const error = useLinkCode(async () => {
    const answer = await api<{ message: string }>("/api/email-change", { method: "POST", body: { token } });
    const me = await refreshMe(queryClient);
    snackbar.success(answer.message);
    navigate(me ? "/profile" : signInPathFor("/profile"), { replace: true });
  });

  if (!error) return <LoadingView text="Confirming your new e-mail..." />;
  return <RefusedLink error={`Error: ${error}`} to="/profile" label="Account Settings" />;
}
