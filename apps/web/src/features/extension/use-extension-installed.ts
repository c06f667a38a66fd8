/**
 * Whether the Redline browser extension is installed (SPEC §7): its icon, a web-accessible resource for
 * this origin, loads. Asked at once, then every 2 s while the page shows (an install in another tab is
 * seen without reloading). Only Chromium-based browsers give the extension a fixed address to ask;
 * elsewhere the answer is null (unknown).
 */
import { EXTENSION_ICON_PATH, EXTENSION_ID, EXTENSION_POLL_MS } from "@redline/shared";
import { useEffect, useState } from "react";

/** A browser the extension supports and whose installs can be detected: a Chromium-based one. */
export function isSupportingBrowser(nav: Pick<Navigator, "userAgent"> = navigator): boolean {
  return /(?:Chrome|Chromium|Edg)\//.test(nav.userAgent) && !/\bFirefox\//.test(nav.userAgent);
}

const ICON_URL = `chrome-extension://${EXTENSION_ID}${EXTENSION_ICON_PATH}`;

function iconLoads(): Promise<boolean> {
  return new Promise((resolve) => {
    const image = new Image();
    image.onload = () => resolve(true);
    image.onerror = () => resolve(false);
    image.src = `${ICON_URL}?t=${Date.now()}`;
  });
}

export function useExtensionInstalled(): boolean | null {
  const [installed, setInstalled] = useState<boolean | null>(null);
  useEffect(() => {
    if (!isSupportingBrowser()) return;
    let live = true;
    const ask = () =>
      void iconLoads().then((loads) => {
        if (live) setInstalled(loads);
      });
    ask();
    const timer = setInterval(ask, EXTENSION_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  return installed;
}
