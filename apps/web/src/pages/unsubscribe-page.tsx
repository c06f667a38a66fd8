/**
 * `/unsubscribe?token=…`: the link in a notification mail's footer (RFC 8058's one-click link is for mail
 * clients; people land here). Says which kind of mail it turns off, then does it on a click — no sign-in.
 */
import { UNSUBSCRIBE_MESSAGES, type UnsubscribeInfo } from "@redline/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { LoadingView } from "../components/loading-view.tsx";
import { PendingButton } from "../components/pending-button.tsx";
import { AuthLayout } from "../features/auth/auth-layout.tsx";
import { api } from "../lib/api.ts";
import { errorMessage } from "../lib/auth-client.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";

const path = (token: string) => `/api/mail/unsubscribe?token=${encodeURIComponent(token)}`;

export function UnsubscribePage() {
  useDocumentTitle("Unsubscribe");
  const token = useSearchParams()[0].get("token") ?? "";
  const info = useQuery({
    queryKey: ["api", "mail", "unsubscribe", token],
    enabled: token !== "",
    queryFn: async ({ signal }) => (await api<{ data: UnsubscribeInfo }>(path(token), { signal })).data,
  });
  const unsubscribe = useMutation({
    mutationFn: () => api<{ message: string }>(path(token), { method: "POST", body: {} }),
  });

  if (token === "" || info.isError)
    return (
      <AuthLayout title="This link doesn't work">
        <p className="form-error" role="alert">
          {token === "" ? UNSUBSCRIBE_MESSAGES.invalid : errorMessage(info.error)}
        </p>
        <SettingsAction />
      </AuthLayout>
    );
  if (info.isPending) return <LoadingView text="Reading your link..." />;

  const label = info.data.label.toLowerCase();
  if (unsubscribe.isSuccess || !info.data.isOn)
    return (
      <AuthLayout title="Unsubscribed">
        <p className="auth__text" role="status">
          {unsubscribe.data?.message ?? UNSUBSCRIBE_MESSAGES.done(info.data.label)}
        </p>
        <p className="auth__text">Other e-mails stay as they are. Change any of them in your settings.</p>
        <SettingsAction />
      </AuthLayout>
    );
  return (
    <AuthLayout title="Unsubscribe">
      <p className="auth__text">Stop e-mails about {label}? Your other e-mails stay as they are.</p>
      {unsubscribe.isError ? (
        <p className="form-error" role="alert">
          {errorMessage(unsubscribe.error)}
        </p>
      ) : null}
      <div className="auth__actions">
        <PendingButton
          className="btn btn--primary"
          isPending={unsubscribe.isPending}
          pendingLabel="Unsubscribing..."
          onClick={() => unsubscribe.mutate()}
        >
          {`Unsubscribe from ${label}`}
        </PendingButton>
        <SettingsLink />
      </div>
    </AuthLayout>
  );
}

/** Every other e-mail preference is on the profile page (sign-in first when signed out). */
function SettingsLink() {
  return (
    <Link className="btn" to="/profile">
      E-mail settings
    </Link>
  );
}

function SettingsAction() {
  return (
    <div className="auth__actions">
      <SettingsLink />
    </div>
  );
}
