/** The composer of a new comment on what the reviewer just picked: an element, a point of an image or a PDF page. */
import type { FrameAnchor, MentionPerson } from "@redline/shared";
import type { VideoTarget } from "../../components/video/video-recorder-modal.tsx";
import { CommentComposer, type ComposerSubmit } from "./comment-composer.tsx";

/** A pick waiting for its comment. */
export type Pending =
  | { kind: "element"; anchor: FrameAnchor; dotPosition: { x: number; y: number }; deviceWidth: number }
  | { kind: "position"; x: number; y: number; pdfPage: number | null; deviceWidth: number };

export function NewComment({
  pending,
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
      <p className="activity__hint">{pickedText(pending)}</p>
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

function pickedText(pending: Pending): string {
  if (pending.kind === "position")
    return pending.pdfPage ? `New comment on page ${pending.pdfPage}` : "New comment on the image";
  const tag = pending.anchor.fingerprint.tag;
  return `New comment on ‹${typeof tag === "string" ? tag : "element"}›`;
}
