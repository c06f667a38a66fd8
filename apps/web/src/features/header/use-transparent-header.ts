import { useEffect, useState } from "react";
import { isHeaderTransparent } from "./shell-rules.ts";

/** Whether the header is transparent now: follows the window's scroll on the routes where it can be. */
export function useTransparentHeader(pathname: string): boolean {
  const [isTransparent, setTransparent] = useState(() => isHeaderTransparent(pathname, window.scrollY));
  useEffect(() => {
    const update = () => setTransparent(isHeaderTransparent(pathname, window.scrollY));
    update();
    if (!isHeaderTransparent(pathname, Number.POSITIVE_INFINITY)) return;
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, [pathname]);
  return isTransparent;
}
