/**
 * The file the user picked in an `<input type="file">`, the input cleared so that the same file can be
 * picked again. A file over the upload limit (SPEC §5) is refused with the §8 warning: then there is none.
 */
import { MESSAGES } from "@redline/shared";
import type { ChangeEvent } from "react";
import { isTooLarge } from "../lib/files.ts";
import { snackbar } from "./snackbar-store.ts";

export function pickedFile(event: ChangeEvent<HTMLInputElement>): File | null {
  const file = event.target.files?.[0];
  event.target.value = "";
  if (!file) return null;
  if (isTooLarge(file)) {
    snackbar.warning(MESSAGES.maxFileSize);
    return null;
  }
  return file;
}
