/**
 * `/project/{projectId}` of a bug-tracking project (browse, mobile; SPEC §2): the project's bar, the
 * expired notice, and the board — `?t={ticketId}` opens that ticket. `toolbar` is the board toolbar's
 * slot for the project's own actions (the install-widget button).
 */
import type { ProjectDetail } from "@redline/shared";
import type { ReactNode } from "react";
import { TicketBoard } from "../features/board/ticket-board.tsx";
import { ExpiredNotice } from "../features/projects/expired-notice.tsx";
import { ProjectBar } from "../features/projects/project-bar.tsx";
import { ShareButton } from "../features/sharing/share-modal.tsx";
import "../features/projects/projects.css";

export function BoardPage({ project, toolbar }: { project: ProjectDetail; toolbar?: ReactNode }) {
  return (
    <div className="screen project-home">
      <ProjectBar project={project} share={<ShareButton project={project} variant="bar" />} />
      <ExpiredNotice project={project} />
      <TicketBoard projectId={project.id} toolbar={toolbar} />
    </div>
  );
}
