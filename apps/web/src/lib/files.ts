/** Reading files the user picked: size checks against SPEC §5 and data URLs for JSON uploads. */
import { MAX_UPLOAD_BYTES } from "@redline/shared";

export const IMAGE_TYPES = "image/png,image/jpeg,image/webp,image/gif";
export const IMAGE_AND_PDF_TYPES = `${IMAGE_TYPES},application/pdf`;

export function isTooLarge(file: File): boolean {
  return file.size > MAX_UPLOAD_BYTES;
}

export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("Could not read the file."));
    reader.readAsDataURL(file);
  });
}

/** One file as multipart/form-data under the field name the API reads (`file`). */
export function fileForm(file: File): FormData {
  const form = new FormData();
  form.append("file", file, file.name);
  return form;
}
