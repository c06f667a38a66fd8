/**
 * UI-only state for the upgrade prompt (SPEC §2 upgrade modal): a tiny external store like the snackbars',
 * so whatever a plan limit refuses — a full project, full storage — any code can show the one prompt,
 * mounted once in the root layout. What it says comes from the server's 402.
 */
import { useSyncExternalStore } from "react";
import { isPlanRefusal } from "./plan-limit-text.tsx";

export interface UpgradePromptContent {
  title: string;
  description: string;
}

interface UpgradePromptState {
  open: boolean;
  /** Kept after closing, so the prompt does not empty while it animates out. */
  content: UpgradePromptContent | null;
}

let state: UpgradePromptState = { open: false, content: null };
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function showUpgradePrompt(content: UpgradePromptContent): void {
  state = { open: true, content };
  emit();
}

export function closeUpgradePrompt(): void {
  if (!state.open) return;
  state = { ...state, open: false };
  emit();
}

/** The prompt for a plan limit's 402 (the server's message says which limit and what it allows). */
export function planRefusalPrompt(error: { code: string; message: string }): UpgradePromptContent {
  return {
    title: error.code === "storage" ? "This project's storage is full" : "Upgrade your plan",
    description: error.message,
  };
}

/** Shows the upgrade prompt when `error` is a plan limit's 402; says whether it did. */
export function showPlanRefusal(error: unknown): boolean {
  if (!isPlanRefusal(error)) return false;
  showUpgradePrompt(planRefusalPrompt(error));
  return true;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUpgradePrompt(): UpgradePromptState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}
