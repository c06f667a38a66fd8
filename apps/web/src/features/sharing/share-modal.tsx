/**
 * The share-project modal (SPEC §2), opened from a project card's top right corner and from the
 * project's title bar: add people by e-mail, the people with access, a team project's collaborators, the
 * public link, and (for the owner) the review request link.
 */
import type { ProjectSummary } from "@redline/shared";
import { Share2 } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { Modal } from "../../components/modal.tsx";
import { AddMemberForm } from "./add-member-form.tsx";
import { MemberList } from "./member-list.tsx";
import { PublicLink } from "./public-link.tsx";
import { ReviewLink } from "./review-link.tsx";
import { TeamCollaborators } from "./team-collaborators.tsx";
import "./sharing.css";

export function ShareModal({
  project,
  open,
  onOpenChange,
}: {
  project: ProjectSummary;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const navigate = useNavigate();
  const canManage = project.abilities.manageMembers;

  const handleLeft = () => {
    onOpenChange(false);
    navigate("/projects");
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`Share “${project.title}”`}
      description={
        canManage
          ? "Invite people by e-mail, choose what they may do, or turn on a public link."
          : "The people who have access to this project."
      }
      footer={
        <button type="button" className="btn" onClick={() => onOpenChange(false)}>
          Done
        </button>
      }
    >
      <div className="share">
        {canManage ? <AddMemberForm projectId={project.id} /> : null}
        <section className="share-section" aria-labelledby="share-people-title">
          <div className="share-section__head">
            <h3 id="share-people-title" className="share-section__title">
              People with access
            </h3>
          </div>
          <MemberList project={project} onLeft={handleLeft} />
        </section>
        <TeamCollaborators project={project} />
        <PublicLink project={project} />
        <ReviewLink project={project} />
      </div>
    </Modal>
  );
}

/** The share button: an icon on the card's corner, a labelled button in the title bar. */
export function ShareButton({ project, variant }: { project: ProjectSummary; variant: "card" | "bar" }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      {variant === "card" ? (
        <button
          type="button"
          className="project-card__share"
          aria-label={`Share ${project.title}`}
          title="Share"
          onClick={() => setOpen(true)}
        >
          <Share2 size={16} aria-hidden />
        </button>
      ) : (
        <button type="button" className="btn project-bar__share" onClick={() => setOpen(true)}>
          <Share2 size={16} aria-hidden /> Share
        </button>
      )}
      <ShareModal project={project} open={isOpen} onOpenChange={setOpen} />
    </>
  );
}
