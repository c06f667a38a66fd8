/**
 * Offline/online messages (SPEC §8): offline shows a warning until the connection returns; coming
 * back shows "We're back online!" for 5 s.
 */
import { MESSAGES, SNACKBAR_MS } from "@redline/shared";
import { useEffect } from "react";
import { dismissSnackbar, showSnackbar } from "./snackbar-store.ts";

const OFFLINE_ID = "offline";

export function OnlineStatus() {
  useEffect(() => {
    const handleOffline = () =>
      showSnackbar("warning", MESSAGES.offline, { id: OFFLINE_ID, durationMs: null });
    const handleOnline = () => {
      dismissSnackbar(OFFLINE_ID);
      showSnackbar("success", MESSAGES.backOnline, { durationMs: SNACKBAR_MS.backOnline });
    };
    if (!navigator.onLine) handleOffline();
    window.addEventListener("offline", handleOffline);
    window.addEventListener("online", handleOnline);
    return () => {
      window.removeEventListener("offline", handleOffline);
      window.removeEventListener("online", handleOnline);
    };
  }, []);
  return null;
}
