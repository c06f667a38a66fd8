/**
 * A button whose action takes a moment (a mutation): disabled while it runs (`isPending`) or when the
 * caller says so (`disabled`), and saying `pendingLabel` ("Saving...") meanwhile instead of its children.
 */
import type { ButtonHTMLAttributes } from "react";

export function PendingButton({
  isPending,
  pendingLabel,
  disabled,
  children,
  ...button
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type"> & {
  isPending: boolean;
  pendingLabel: string;
}) {
  return (
    <button type="button" {...button} disabled={isPending || disabled}>
      {isPending ? pendingLabel : children}
    </button>
  );
}
