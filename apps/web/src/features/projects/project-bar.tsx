/**
 * The project's title bar on the page view: back to the lists, the title (click to rename), labels, and
 * the share button.
 */
import { accessLabel, type ProjectDetail, teamDisplayName } from "@redline/shared";
import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { InlineEdit } from "../../components/inline-edit.tsx";
import { projectExpiryLabel } from "./project-expiry.ts";
import { useUpdateProject } from "./project-queries.ts";
import { PROJECT_TYPE_INFO } from "./project-types.ts";
import "./project-home.css";
import type { ReactNode } from "react";

/** `share`: the share button (the sharing feature's), supplied by the page. */
export function ProjectBar({ project, share }: { project: ProjectDetail; share?: ReactNode }) {
  const update = useUpdateProject();
  const expiry = projectExpiryLabel(project);
  return (
    <div className="screen__bar project-bar">
      <Link to="/projects" className="icon-btn" aria-label="All projects">
        <ArrowLeft size={18} aria-hidden />
      </Link>
      <h1 className="project-bar__title">
        <InlineEdit
          value={project.title}
          label="Rename project"
          allowEmpty
          onSave={project.abilities.update ? (title) => update.mutate({ id: project.id, title }) : undefined}
        />
      </h1>
      <span className="tag">{PROJECT_TYPE_INFO[project.type].label}</span>
      <span className="tag">{accessLabel(project.access)}</span>
      {project.team ? <span className="tag tag--accent">Team: {teamDisplayName(project.team)}</span> : null}
      {expiry ? (
        <span className={expiry === "Expired" ? "tag tag--danger" : "tag tag--warning"}>{expiry}</span>
      ) : null}
      {share}
    </div>
  );
}
