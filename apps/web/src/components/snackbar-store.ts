/**
 * UI-only state for snackbars: a tiny external store (no provider needed), so any code — a
 * mutation callback, the sign-out flow, the online listener — can show a message.
 */
import { SNACKBAR_MS } from "@redline/shared";
import { useSyncExternalStore } from "react";

export type SnackbarKind = "success" | "error" | "warning" | "info";

export interface Snackbar {
  id: string;
  kind: SnackbarKind;
  message: string;
  /** null keeps it until dismissed or replaced. */
  durationMs: number | null;
}

let snackbars: Snackbar[] = [];
const listeners = new Set<() => void>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function emit() {
  for (const listener of listeners) listener();
}

export function showSnackbar(
  kind: SnackbarKind,
  message: string,
  { durationMs = SNACKBAR_MS.default, id }: { durationMs?: number | null; id?: string } = {},
): string {
  counter += 1;
  const key = id ?? `snackbar-${counter}`;
  dismissSnackbar(key, { silent: true });
  // The newest message of the same text replaces an older one rather than stacking.
  snackbars = [
    ...snackbars.filter((item) => item.message !== message),
    { id: key, kind, message, durationMs },
  ];
  if (durationMs !== null)
    timers.set(
      key,
      setTimeout(() => dismissSnackbar(key), durationMs),
    );
  emit();
  return key;
}

export function dismissSnackbar(id: string, { silent = false }: { silent?: boolean } = {}): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  const next = snackbars.filter((item) => item.id !== id);
  if (next.length === snackbars.length) return;
  snackbars = next;
  if (!silent) emit();
}

export const snackbar = {
  success: (message: string, durationMs?: number | null) => showSnackbar("success", message, { durationMs }),
  error: (message: string, durationMs?: number | null) => showSnackbar("error", message, { durationMs }),
  warning: (message: string, durationMs?: number | null) => showSnackbar("warning", message, { durationMs }),
  info: (message: string, durationMs?: number | null) => showSnackbar("info", message, { durationMs }),
};

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSnackbars(): Snackbar[] {
  return useSyncExternalStore(
    subscribe,
    () => snackbars,
    () => snackbars,
  );
}
