/**
 * UI-only state: which support dialog is open (Send Feedback or What's New). A tiny external store, so the
 * header's help menu opens a dialog that the app layout renders, without importing its component.
 */
import { useSyncExternalStore } from "react";

export type SupportDialog = "feedback" | "whats-new";

let open: SupportDialog | null = null;
const listeners = new Set<() => void>();

function set(next: SupportDialog | null) {
  open = next;
  for (const listener of listeners) listener();
}

export const openSupportDialog = (dialog: SupportDialog) => set(dialog);
export const closeSupportDialog = () => set(null);

/** The support dialog open now, or null. */
export function useSupportDialog(): SupportDialog | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => open,
  );
}
