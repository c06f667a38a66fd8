import { Outlet, ScrollRestoration } from "react-router";
import { OnlineStatus } from "../components/online-status.tsx";
import { Snackbars } from "../components/snackbars.tsx";
import { UpgradePrompt } from "../components/upgrade-prompt.tsx";

/** Wraps every route: snackbars, the upgrade prompt, the online/offline listener, scroll restoration. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <Snackbars />
      <UpgradePrompt />
      <OnlineStatus />
      <ScrollRestoration />
    </>
  );
}
