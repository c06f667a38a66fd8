/**
 * Display name and photo. A chosen photo is read as a data URL, previewed, and on save uploaded first
 * (POST /api/me/photo); then only the changed fields are sent (SPEC §5).
 */
import { MESSAGES, type ProfileUpdate, type User } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, type FormEvent, useState } from "react";
import { Avatar } from "../../components/avatar.tsx";
import { NameField, TextField } from "../../components/field.tsx";
import { PhotoUpload } from "../../components/photo-upload.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { ME_KEY } from "../session/use-me.ts";
import { readChosenPhoto, uploadPhoto } from "./photo.ts";

export function ProfileForm({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState(user.displayName);
  const [photoDataUrl, setPhotoDataUrl] = useState<string | null>(null);

  const trimmedName = displayName.trim();
  const isNameChanged = trimmedName !== user.displayName;
  const isDirty = (isNameChanged && trimmedName.length > 0) || photoDataUrl !== null;

  const save = useMutation({
    mutationFn: async () => {
      const update: ProfileUpdate = {};
      if (photoDataUrl) update.photoURL = await uploadPhoto(photoDataUrl);
      if (isNameChanged) update.displayName = trimmedName;
      return api<{ data: User; message: string }>("/api/me", { method: "PATCH", body: update });
    },
    onSuccess: ({ data, message }) => {
      queryClient.setQueryData(ME_KEY, data);
      setDisplayName(data.displayName);
      setPhotoDataUrl(null);
      snackbar.success(message || MESSAGES.profileUpdated);
    },
    onError: (error) => snackbar.error(errorMessage(error)),
  });

  const handleFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const dataUrl = await readChosenPhoto(event);
    if (dataUrl) setPhotoDataUrl(dataUrl);
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isDirty && !save.isPending) save.mutate();
  };

  return (
    <form className="profile-form" onSubmit={handleSubmit}>
      <div className="profile-form__photo">
        <Avatar name={trimmedName || user.email} photoURL={photoDataUrl ?? user.photoURL} size={72} />
        <div className="profile-form__photo-actions">
          <PhotoUpload
            label={user.photoURL || photoDataUrl ? "Change photo" : "Upload photo"}
            onChange={handleFile}
          />
          {photoDataUrl ? <p className="field__hint">New photo selected — save to apply it.</p> : null}
        </div>
      </div>
      <NameField
        label="Display name"
        value={displayName}
        onChange={(event) => setDisplayName(event.target.value)}
      />
      <TextField label="Email" type="email" value={user.email} readOnly />
      <div className="profile-form__actions">
        <button type="submit" className="btn btn--primary" disabled={!isDirty || save.isPending}>
          {save.isPending ? "Saving..." : "Save changes"}
        </button>
      </div>
    </form>
  );
}
