import { SITE_TITLE } from "./constants.ts";

/** '{title} | {site title}' (SPEC §2). */
export function tabTitle(title: string, siteTitle: string = SITE_TITLE): string {
  return `${title} | ${siteTitle}`;
}

/** Project titles in the tab are cut to 20 characters plus an ellipsis. */
export function projectTabTitle(projectTitle: string): string {
  return truncate(projectTitle, 20, "…");
}

/** Notification page titles longer than 15 characters are cut to 15 plus '...'. */
export function notificationPageTitle(pageTitle: string): string {
  return truncate(pageTitle, 15, "...");
}

function truncate(text: string, max: number, ellipsis: string): string {
  return text.length > max ? text.slice(0, max) + ellipsis : text;
}

/** Badge counts above 9 show as '9+'. */
export function badgeCount(count: number): string {
  return count > 9 ? "9+" : String(count);
}
