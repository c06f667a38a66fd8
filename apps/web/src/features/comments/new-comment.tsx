/** The composer of a new comment on what the reviewer just picked: an element, a point of an image or a PDF page. */
import type { MentionPerson, Target } from "@redline/shared";
import type { VideoTarget } from "../../components/video/video-recorder-modal.tsx";
import { CommentComposer, type ComposerSubmit } from "./comment-composer.tsx";

/** A pick waiting for its comment: its target, and the width of the device it was picked at. */
export interface Pending {
  target: Target;
  deviceWidth: number;
}

export function NewComment({
  pending,
  description,
  people,
  projectId,
  allowAttachments,
  videoTarget,
  isPending,
  onSubmit,
  onCancel,
  onDraftChange,
}: {
  pending: Pending;
  /** What was picked, as the stage says it ("New comment on page 2"). */
  description: string;
  people: MentionPerson[] | null;
  projectId: string;
  allowAttachments: boolean;
  videoTarget: VideoTarget | null;
  isPending: boolean;
  onSubmit(input: ComposerSubmit): Promise<unknown>;
  onCancel(): void;
  onDraftChange(hasDraft: boolean): void;
}) {
  return (
    <section className="activity__new-comment" aria-label="New comment">
      <p className="activity__hint">{description}</p>
      <CommentComposer
        key={JSON.stringify(pending)}
        label="Write a comment"
        submitLabel="Comment"
        people={people}
        projectId={projectId}
        allowAttachments={allowAttachments}
        videoTarget={videoTarget}
        autoFocus
        isPending={isPending}
        onSubmit={onSubmit}
        onCancel={onCancel}
        onDraftChange={onDraftChange}
      />
    </section>
  );
}
