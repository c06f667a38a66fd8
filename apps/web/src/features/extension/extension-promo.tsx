/**
 * SPEC §2: the browser-extension promo badge, on web-app projects in a supporting browser while the
 * extension is not installed. It leads to /extension (what it does, how to install it).
 */
import type { ProjectDetail } from "@redline/shared";
import { Puzzle } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import { useUpdateProject } from "../projects/project-queries.ts";
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

/** SPEC §3 `isPluginDisabled`: a web-app project's editors choose whether the extension is offered it. */
export function ExtensionToggle({
  project,
}: {
  project: Pick<ProjectDetail, "id" | "type" | "isPluginDisabled" | "abilities">;
}) {
  const id = useId();
  const update = useUpdateProject();
  if (project.type !== "webapp" || !project.abilities.update) return null;
  return (
    <label className="tag extension-toggle" htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        checked={!project.isPluginDisabled}
        disabled={update.isPending}
        onChange={(event) => update.mutate({ id: project.id, isPluginDisabled: !event.target.checked })}
      />{" "}
      Browser extension
    </label>
  );
}
