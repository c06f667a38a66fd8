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

/** `/profile`: Account Settings, tab Account. */
export function ProfilePage() {
  useDocumentTitle("Account Settings");
  const { data: me } = useMe();
  if (!me) return <LoadingView />;
  return (
    <main className="profile-page">
      <SettingsHeader />
      <div className="profile-grid">
        <section className="panel" aria-labelledby="profile-heading">
          <h2 id="profile-heading" className="panel__title">
            Profile
          </h2>
          <ProfileForm key={`${me.displayName}|${me.photoURL}`} user={me} />
        </section>
        <section className="panel" aria-labelledby="password-heading">
          <h2 id="password-heading" className="panel__title">
            Password
          </h2>
          <PasswordForm />
        </section>
        <section className="panel" aria-labelledby="email-address-heading">
          <h2 id="email-address-heading" className="panel__title">
            Email address
          </h2>
          <EmailChange user={me} />
        </section>
        <section className="panel" aria-labelledby="email-heading">
          <h2 id="email-heading" className="panel__title">
            Email notifications
          </h2>
          <p className="panel__text">Choose which e-mail alerts you receive.</p>
          <EmailPreferences user={me} />
        </section>
        <section className="panel" aria-labelledby="sound-heading">
          <h2 id="sound-heading" className="panel__title">
            In-app notifications
          </h2>
          <NotificationSound user={me} />
        </section>
        <section className="panel" aria-labelledby="storage-heading">
          <h2 id="storage-heading" className="panel__title">
            Storage
          </h2>
          <p className="panel__text">Files uploaded to the projects you own.</p>
          <StorageUsage user={me} />
        </section>
        <section className="panel profile-section--wide" aria-labelledby="tokens-heading">
          <h2 id="tokens-heading" className="panel__title">
            API tokens
          </h2>
          <ApiTokens />
        </section>
        <section className="panel profile-section--wide" aria-labelledby="danger-heading">
          <h2 id="danger-heading" className="panel__title">
            Delete account
          </h2>
          <DeleteAccount />
        </section>
      </div>
    </main>
  );
}
