import { LoadingView } from "../components/loading-view.tsx";
import { SettingsHeader } from "../components/settings-header.tsx";
import { ApiTokens } from "../features/profile/api-tokens.tsx";
import { DeleteAccount } from "../features/profile/delete-account.tsx";
import { EmailChange } from "../features/profile/email-change.tsx";
import { EmailPreferences, NotificationSound } from "../features/profile/notification-settings.tsx";
import { PasswordForm } from "../features/profile/password-form.tsx";
import { ProfileForm } from "../features/profile/profile-form.tsx";
import { StorageUsage } from "../features/profile/storage-usage.tsx";
import { useMe } from "../features/session/use-me.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import "../features/profile/profile.css";
import { Panel } from "../components/panel.tsx";

/** `/profile`: Account Settings, tab Account. */
export function ProfilePage() {
  useDocumentTitle("Account Settings");
  const { data: me } = useMe();
  if (!me) return <LoadingView />;
  return (
    <main className="content-page profile-page">
      <SettingsHeader />
      <div className="profile-grid">
        <Panel id="profile-heading" title="Profile">
          <ProfileForm key={`${me.displayName}|${me.photoURL}`} user={me} />
        </Panel>
        <Panel id="password-heading" title="Password">
          <PasswordForm />
        </Panel>
        <Panel id="email-address-heading" title="Email address">
          <EmailChange user={me} />
        </Panel>
        <Panel id="email-heading" title="Email notifications" text="Choose which e-mail alerts you receive.">
          <EmailPreferences user={me} />
        </Panel>
        <Panel id="sound-heading" title="In-app notifications">
          <NotificationSound user={me} />
        </Panel>
        <Panel id="storage-heading" title="Storage" text="Files uploaded to the projects you own.">
          <StorageUsage user={me} />
        </Panel>
        <Panel id="tokens-heading" title="API tokens" className="profile-section--wide">
          <ApiTokens />
        </Panel>
        <Panel id="danger-heading" title="Delete account" className="profile-section--wide">
          <DeleteAccount />
        </Panel>
      </div>
    </main>
  );
}
