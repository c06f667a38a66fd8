/**
 * UI-only state of the header's messages panel: open or not, and which conversation it shows (null: the
 * list). A tiny external store, so 'Need help?' (the layout) can open it on the support conversation.
 */
import { useSyncExternalStore } from "react";

interface PanelState {
  isOpen: boolean;
  conversationId: string | null;
}

let state: PanelState = { isOpen: false, conversationId: null };
const listeners = new Set<() => void>();

export function setMessagesPanel(next: Partial<PanelState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export function useMessagesPanel(): PanelState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
