/**
 * A modal holding one form: Cancel and the form's submit button in the footer, Enter in a field submits,
 * and nothing is sent while the form cannot be (`canSubmit`) or is being sent (`isPending`, which shows
 * `pendingLabel` on the button).
 */
import { type FormEvent, type ReactNode, useId } from "react";
import { Modal, type ModalProps } from "./modal.tsx";

export function FormModal({
  submitLabel,
  pendingLabel,
  isPending = false,
  canSubmit = true,
  isDanger = false,
  formClassName,
  onSubmit,
  children,
  ...modal
}: Omit<ModalProps, "footer"> & {
  submitLabel: ReactNode;
  /** What the button says while the form is sent ("Sending...", "Creating..."). */
  pendingLabel?: string;
  isPending?: boolean;
  canSubmit?: boolean;
  isDanger?: boolean;
  formClassName: string;
  onSubmit(): void;
}) {
  const id = useId();
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (canSubmit && !isPending) onSubmit();
  };
  return (
    <Modal
      {...modal}
      footer={
        <>
          <button type="button" className="btn" onClick={() => modal.onOpenChange(false)}>
            Cancel
          </button>
          <button
            type="submit"
            form={`${id}-form`}
            className={isDanger ? "btn btn--danger" : "btn btn--primary"}
            disabled={!canSubmit || isPending}
          >
            {isPending && pendingLabel ? pendingLabel : submitLabel}
          </button>
        </>
      }
    >
      <form id={`${id}-form`} className={formClassName} onSubmit={handleSubmit}>
        {children}
      </form>
    </Modal>
  );
}
