/**
 * The header's rules that depend on where the user is (SPEC §2 header, §9 threshold): where its back
 * button leads, and on which routes it turns transparent once the page scrolls past 100 px.
 */
import { HEADER_TRANSPARENT_AFTER_PX } from "@redline/shared";

export interface BackTarget {
  to: string;
  label: string;
}

const trimmed = (pathname: string) => pathname.replace(/\/+$/, "") || "/";

/**
 * SPEC §2: to `/upgrade` from the payment summary, to the project from a project subpage, otherwise to
 * `/projects`. Null where the button has nowhere to go back to (the project lists themselves).
 */
export function backTarget(pathname: string): BackTarget | null {
  const path = trimmed(pathname);
  if (path === "/projects" || path.startsWith("/projects/")) return null;
  if (path.startsWith("/upgrade/confirm/")) return { to: "/upgrade", label: "Back to plans" };
  const project = /^\/project\/([^/]+)\/./.exec(path);
  if (project) return { to: `/project/${project[1]}`, label: "Back to the project" };
  return { to: "/projects", label: "Back to projects" };
}

/** SPEC §2: on `/projects` (the project list), past the threshold. */
export function isHeaderTransparent(pathname: string, scrollY: number): boolean {
  return trimmed(pathname) === "/projects" && scrollY >= HEADER_TRANSPARENT_AFTER_PX;
}
