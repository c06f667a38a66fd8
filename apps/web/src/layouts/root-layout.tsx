import { Outlet, ScrollRestoration } from "react-router";
import { OnlineStatus } from "../components/online-status.tsx";
import { Snackbars } from "../components/snackbars.tsx";

/** Wraps every route: snackbars, the online/offline listener, scroll restoration. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <Snackbars />
      <OnlineStatus />
      <ScrollRestoration />
    </>
  );
}
