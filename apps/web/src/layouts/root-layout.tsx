import { lazy, Suspense } from "react";
import { Outlet, ScrollRestoration } from "react-router";
import { OnlineStatus } from "../components/online-status.tsx";
import { Snackbars } from "../components/snackbars.tsx";
import { useUpgradePrompt } from "../components/upgrade-prompt-store.ts";

// The prompt (a Radix dialog) loads the first time a plan limit asks for it, not with every page (issue #34).
const UpgradePrompt = lazy(async () => ({
  default: (await import("../components/upgrade-prompt.tsx")).UpgradePrompt,
}));

/** Wraps every route: snackbars, the upgrade prompt, the online/offline listener, scroll restoration. */
export function RootLayout() {
  const { content } = useUpgradePrompt();
  return (
    <>
      <Outlet />
      <Snackbars />
      {content && (
        <Suspense fallback={null}>
          <UpgradePrompt />
        </Suspense>
      )}
      <OnlineStatus />
      <ScrollRestoration />
    </>
  );
}
