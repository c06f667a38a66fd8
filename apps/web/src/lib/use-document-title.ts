import { useEffect } from "react";
import { documentTitle, useHostTitle } from "./host-title.ts";

/** Sets the tab title as '{title} | Redline' (SPEC §2), or the custom host's title on a team's domain. */
export function useDocumentTitle(title: string): void {
  const hostTitle = useHostTitle();
  useEffect(() => {
    document.title = documentTitle(title, hostTitle);
  }, [title, hostTitle]);
}
