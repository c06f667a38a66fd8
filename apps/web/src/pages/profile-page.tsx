import { LoadingView } from "../components/loading-view.tsx";
import { SettingsHeader } from "../components/settings-header.tsx";
import { DeleteAccount } from "../features/profile/delete-account.tsx";
import { EmailPreferences, NotificationSound } from "../features/profile/notification-settings.tsx";
import { PasswordForm } from "../features/profile/password-form.tsx";
import { ProfileForm } from "../features/profile/profile-form.tsx";
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
        <section className="profile-section" aria-labelledby="profile-heading">
          <h2 id="profile-heading" className="profile-section__title">
            Profile
          </h2>
          <ProfileForm key={`${me.displayName}|${me.photoURL}`} user={me} />
        </section>
        <section className="profile-section" aria-labelledby="password-heading">
          <h2 id="password-heading" className="profile-section__title">
            Password
          </h2>
          <PasswordForm />
        </section>
        <section className="profile-section" aria-labelledby="email-heading">
          <h2 id="email-heading" className="profile-section__title">
            Email notifications
          </h2>
          <p className="profile-section__text">Choose which e-mail alerts you receive.</p>
          <EmailPreferences user={me} />
        </section>
        <section className="profile-section" aria-labelledby="sound-heading">
          <h2 id="sound-heading" className="profile-section__title">
            In-app notifications
          </h2>
          <NotificationSound user={me} />
        </section>
        <section className="profile-section profile-section--wide" aria-labelledby="danger-heading">
          <h2 id="danger-heading" className="profile-section__title">
            Delete account
          </h2>
          <DeleteAccount />
        </section>
      </div>
    </main>
  );
}
