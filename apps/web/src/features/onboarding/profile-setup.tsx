/**
 * The full-screen profile setup (SPEC §2 modals: shown while the display name, photo or sign-up source is
 * missing and the e-mail is verified): the name others see, a photo — uploaded, or one of the built-in
 * avatars — and how the user heard of us (SPEC §3 signupSource). Saving or closing marks it done
 * (`profileSetup`), so it never shows again; what was left out can be set in Account Settings.
 */
import type { ProfileUpdate, User } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, type FormEvent, useId, useState } from "react";
import { Avatar } from "../../components/avatar.tsx";
import { Field, FormError, NameField } from "../../components/field.tsx";
import { Modal } from "../../components/modal.tsx";
import { PhotoUpload } from "../../components/photo-upload.tsx";
import { api } from "../../lib/api.ts";
import { readChosenPhoto, uploadPhoto } from "../profile/photo.ts";
import { ME_KEY } from "../session/use-me.ts";
import { BUILT_IN_AVATARS, SIGNUP_SOURCES } from "./profile-choices.ts";
import "./onboarding.css";

type Photo = { kind: "upload"; dataUrl: string } | { kind: "built-in"; id: string } | null;

export function ProfileSetup({ user, onDone }: { user: User; onDone(): void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState(user.displayName);
  const [photo, setPhoto] = useState<Photo>(null);
  const [source, setSource] = useState(user.signupSource ?? "");
  const name = displayName.trim();
  const shownPhoto =
    photo?.kind === "upload" ? photo.dataUrl : photo?.kind === "built-in" ? photo.id : user.photoURL;

  const save = useMutation({
    mutationFn: async () => {
      const update: ProfileUpdate = { displayName: name, onboarding: { profileSetup: true } };
      if (photo?.kind === "upload") update.photoURL = await uploadPhoto(photo.dataUrl);
      if (photo?.kind === "built-in") update.photoURL = photo.id;
      if (source) update.signupSource = source;
      return api<{ data: User }>("/api/me", { method: "PATCH", body: update });
    },
    onSuccess: ({ data }) => queryClient.setQueryData(ME_KEY, data),
  });

  const handleFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const dataUrl = await readChosenPhoto(event);
    if (dataUrl) setPhoto({ kind: "upload", dataUrl });
  };
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name && !save.isPending) save.mutate();
  };

  return (
    <Modal
      open
      fullScreen
      onOpenChange={(open) => (open ? undefined : onDone())}
      title="Set up your profile"
      description="Tell your teammates who is commenting. You can change all of this later in Account Settings."
    >
      <form className="profile-setup" onSubmit={handleSubmit}>
        <div className="profile-setup__photo">
          <Avatar name={name || user.email} photoURL={shownPhoto} size={88} />
          <div>
            <PhotoUpload label="Upload photo" onChange={handleFile} />
          </div>
        </div>
        <fieldset className="profile-setup__avatars">
          <legend className="field__label">Or choose an avatar</legend>
          {BUILT_IN_AVATARS.map((avatar, index) => (
            <label key={avatar} className="profile-setup__avatar">
              <input
                type="radio"
                name={`${id}-avatar`}
                className="profile-setup__avatar-input"
                checked={photo?.kind === "built-in" && photo.id === avatar}
                onChange={() => setPhoto({ kind: "built-in", id: avatar })}
                aria-label={`Avatar ${index + 1}`}
              />
              <Avatar name={name || user.email} photoURL={avatar} size={44} />
            </label>
          ))}
        </fieldset>
        <NameField
          label="Display name"
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
        />
        <Field label="How did you hear about us?">
          {(control) => (
            <select className="input" value={source} onChange={(e) => setSource(e.target.value)} {...control}>
              <option value="">Choose one</option>
              {SIGNUP_SOURCES.map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
          )}
        </Field>
        <FormError error={save.error} />
        <div className="profile-setup__actions">
          <button type="button" className="btn btn--ghost" onClick={onDone}>
            Skip for now
          </button>
          <button type="submit" className="btn btn--primary" disabled={!name || save.isPending}>
            {save.isPending ? "Saving..." : "Continue"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
