/**
 * SPEC §2: the browser-extension promo badge, on web-app projects in a supporting browser while the
 * extension is not installed. It leads to /extension (what it does, how to install it).
 */
import type { ProjectDetail } from "@redline/shared";
import { Puzzle } from "lucide-react";
import { Link } from "react-router";
import { isSupportingBrowser, useExtensionInstalled } from "./use-extension-installed.ts";

export function ExtensionPromo({ project }: { project: Pick<ProjectDetail, "type"> }) {
  const installed = useExtensionInstalled();
  if (project.type !== "webapp" || !isSupportingBrowser() || installed !== false) return null;
  return (
    <Link className="tag tag--accent extension-promo" to="/extension">
      <Puzzle size={14} aria-hidden /> Get the browser extension
    </Link>
  );
}
