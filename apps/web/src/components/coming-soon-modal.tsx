import { useRef } from "react";
import { Modal } from "./modal.tsx";

/** A modal that says plainly that a feature is not built yet (used by menu items of later work). */
export function ComingSoonModal({
  feature,
  onClose,
}: {
  /** The feature's name, or null when closed. */
  feature: { title: string; text: string } | null;
  onClose(): void;
}) {
  // Keep the last texts while the close animation runs.
  const shown = useRef(feature);
  if (feature) shown.current = feature;
  return (
    <Modal
      open={feature !== null}
      onOpenChange={(open) => !open && onClose()}
      title={shown.current?.title ?? ""}
      description={shown.current?.text}
      footer={
        <button type="button" className="btn" onClick={onClose}>
          Got it
        </button>
      }
    />
  );
}
