import { tabTitle } from "@redline/shared";
import { useEffect } from "react";

/** Sets the tab title as '{title} | Redline' (SPEC §2). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = tabTitle(title);
  }, [title]);
}
