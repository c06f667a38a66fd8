import {
  EMAIL_PREFERENCE_KEYS,
  EMAIL_PREFERENCE_LABELS,
  UNSENT_EMAIL_PREFERENCES,
  type User,
} from "@redline/shared";
import { Switch } from "../../components/switch.tsx";
import { usePreferenceUpdate } from "./use-preference-update.ts";

/** Under the flags no mail of an instance is about (the vendor's newsletters): kept, but nothing to send. */
export const UNSENT_PREFERENCE_HINT = "A self-hosted instance never sends these e-mails.";

/** Which e-mail alerts to receive (SPEC §3 flags) and the in-app notification sound. */
export function EmailPreferences({ user }: { user: User }) {
  const update = usePreferenceUpdate();
  return (
    <div>
      {EMAIL_PREFERENCE_KEYS.map((key) => (
        <Switch
          key={key}
          label={EMAIL_PREFERENCE_LABELS[key]}
          description={UNSENT_EMAIL_PREFERENCES.includes(key) ? UNSENT_PREFERENCE_HINT : undefined}
          checked={user.emailPreferences[key]}
          onCheckedChange={(checked) => update.mutate({ emailPreferences: { [key]: checked } })}
        />
      ))}
    </div>
  );
}

export function NotificationSound({ user }: { user: User }) {
  const update = usePreferenceUpdate();
  return (
    <Switch
      label="Notification sound"
      description="Play a sound when a new notification arrives."
      checked={user.notificationSound}
      onCheckedChange={(checked) => update.mutate({ notificationSound: checked })}
    />
  );
}
