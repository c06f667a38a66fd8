/** A yes/no question in the shared Modal: Cancel, and one (usually destructive) confirm button. */
import { useRef } from "react";
import { Modal } from "./modal.tsx";

export function ConfirmModal({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = "Cancel",
  pendingLabel = "Please wait...",
  isPending = false,
  isDanger = true,
  onConfirm,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description: string;
  confirmLabel: string;
  /** The button that closes without acting (say what staying means when "Cancel" would be ambiguous). */
  cancelLabel?: string;
  pendingLabel?: string;
  isPending?: boolean;
  isDanger?: boolean;
  onConfirm(): void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      initialFocusRef={cancel}
      footer={
        <>
          <button ref={cancel} type="button" className="btn" onClick={() => onOpenChange(false)}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className={isDanger ? "btn btn--danger" : "btn btn--primary"}
            disabled={isPending}
            onClick={onConfirm}
          >
            {isPending ? pendingLabel : confirmLabel}
          </button>
        </>
      }
    />
  );
}
