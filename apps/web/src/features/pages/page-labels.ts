/** Labels shared by the pages panel and the viewer. */
import type { Page } from "@redline/shared";

/** The page's address, or 'PDF' / 'image' for uploads (SPEC §3). */
export function pageSource(page: Pick<Page, "url" | "isPDF">): string {
  if (page.url !== "image") return page.url;
  return page.isPDF ? "PDF" : "image";
}

export function isUploadPage(page: Pick<Page, "url">): boolean {
  return page.url === "image";
}

export function versionsLabel(count: number): string {
  return count === 1 ? "1 version" : `${count} versions`;
}
