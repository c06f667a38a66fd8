/**
 * A discussion's thread below its subject's head — a comment's, a ticket's (issue #29's one thread): the
 * entries (entries.tsx), the reply box when the reader may reply, and the confirmation a delete asks
 * first. The subject brings its composer, what a reply sends, and what deleting an entry says it removes
 * (SPEC §4: a comment's first entry takes the comment, a ticket's only entry the ticket).
 */
import { type ComponentProps, type ComponentType, useRef, useState } from "react";
import { ConfirmModal } from "../confirm-modal.tsx";
import type { ComposerProps } from "./composer.tsx";
import { ThreadEntries } from "./entries.tsx";
import type { DiscussionEntry } from "./entry.tsx";

/** What the confirmation of deleting this entry says. */
export interface DeletionText {
  title: string;
  description: string;
  confirmLabel: string;
}

type EntriesProps<Entry extends DiscussionEntry> = ComponentProps<typeof ThreadEntries<Entry>>;

export function DiscussionThread<Entry extends DiscussionEntry>({
  reply,
  deletion,
  isDeleting,
  onConfirmDelete,
  ...entries
}: Omit<EntriesProps<Entry>, "onDelete"> & {
  /** The reply box (the subject's composer, `Editor`), or null when the reader may not reply. */
  reply:
    | (Pick<ComposerProps, "allowAttachments" | "videoTarget" | "isPending" | "onSubmit"> & { key: string })
    | null;
  deletion(entry: NoInfer<Entry>): DeletionText;
  isDeleting: boolean;
  /** Deletes the entry; `done` closes the confirmation. */
  onConfirmDelete(entry: NoInfer<Entry>, done: () => void): void;
}) {
  const [deleting, setDeleting] = useState<Entry | null>(null);
  const Composer: ComponentType<ComposerProps> = entries.Editor;
  // The last question stays while the confirmation closes.
  const asked = useRef<DeletionText | null>(null);
  if (deleting) asked.current = deletion(deleting);
  const text = asked.current;
  return (
    <>
      <ThreadEntries<Entry> {...entries} onDelete={setDeleting} />
      {reply ? (
        <Composer
          key={reply.key}
          label="Reply"
          submitLabel="Reply"
          people={entries.people}
          projectId={entries.projectId}
          allowAttachments={reply.allowAttachments}
          videoTarget={reply.videoTarget}
          isPending={reply.isPending}
          onSubmit={reply.onSubmit}
          onDraftChange={entries.onDraftChange}
        />
      ) : null}
      <ConfirmModal
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={text?.title ?? ""}
        description={text?.description ?? ""}
        confirmLabel={text?.confirmLabel ?? "Delete"}
        pendingLabel="Deleting..."
        isPending={isDeleting}
        onConfirm={() => {
          if (deleting) onConfirmDelete(deleting, () => setDeleting(null));
        }}
      />
    </>
  );
}
