/** "Upload photo": a button-looking label over a hidden image file input, with the accepted kinds said. */
import { Camera } from "lucide-react";
import { type ChangeEvent, useId } from "react";
import { IMAGE_TYPES } from "../lib/files.ts";

export function PhotoUpload({
  label,
  onChange,
}: {
  label: string;
  onChange(event: ChangeEvent<HTMLInputElement>): void;
}) {
  const id = useId();
  return (
    <>
      <label className="btn" htmlFor={id}>
        <Camera size={16} aria-hidden />
        {label}
      </label>
      <input id={id} className="visually-hidden" type="file" accept={IMAGE_TYPES} onChange={onChange} />
      <p className="field__hint">PNG, JPEG, WebP or GIF, up to 5 MB.</p>
    </>
  );
}
