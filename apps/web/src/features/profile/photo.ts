/** A profile photo chosen from a file input: checked (SPEC §5 size, image types) and read, then uploaded. */
import { MAX_UPLOAD_BYTES, MESSAGES } from "@redline/shared";
import type { ChangeEvent } from "react";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { readAsDataUrl } from "../../lib/files.ts";

/** The picked image as a data URL, or null (nothing picked, or refused with a snackbar saying why). */
export async function readChosenPhoto(event: ChangeEvent<HTMLInputElement>): Promise<string | null> {
  const file = event.target.files?.[0];
  event.target.value = "";
  if (!file) return null;
  if (file.size > MAX_UPLOAD_BYTES) {
    snackbar.warning(MESSAGES.maxFileSize);
    return null;
  }
  if (!/^image\/(png|jpeg|webp|gif)$/.test(file.type)) {
    snackbar.error("Choose a PNG, JPEG, WebP or GIF image.");
    return null;
  }
  try {
    return await readAsDataUrl(file);
  } catch (error) {
    snackbar.error(errorMessage(error));
    return null;
  }
}

/** POST /api/me/photo: stores the photo (re-encoded by the server) and returns its URL for the profile. */
export async function uploadPhoto(dataUrl: string): Promise<string> {
  const { data } = await api<{ data: { photoURL: string } }>("/api/me/photo", {
    method: "POST",
    body: { dataUrl },
  });
  return data.photoURL;
}
