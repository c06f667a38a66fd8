/**
 * A discussion's entries, in order, each editable in place by its author: the one list a comment's and a
 * ticket's threads show (issue #29). The subject brings its own composer (its length limit) and what saving
 * an edit means; deleting stays the subject's (its confirmation says what a delete removes).
 */
import type { MentionPerson } from "@redline/shared";
import { type ComponentType, useState } from "react";
import type { ComposerProps } from "./composer.tsx";
import { type DiscussionEntry, ThreadEntry } from "./entry.tsx";

export function ThreadEntries<Entry extends DiscussionEntry>({
  entries,
  people,
  projectId,
  noun,
  canDownload,
  className,
  Editor,
  isSaving,
  onSave,
  onDelete,
  onDraftChange,
}: {
  entries: readonly Entry[];
  people: MentionPerson[] | null;
  projectId: string;
  /** What an entry is called ("comment", "message"): "Edit {noun}", "Delete {noun}". */
  noun: string;
  canDownload: boolean;
  className: string;
  /** The subject's composer, which edits an entry's text. */
  Editor: ComponentType<ComposerProps>;
  isSaving: boolean;
  /** Saves an entry's new text; the editor closes once it resolves. */
  onSave(entry: NoInfer<Entry>, text: string): Promise<unknown>;
  onDelete(entry: NoInfer<Entry>): void;
  onDraftChange?: (hasDraft: boolean) => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <ol className={className}>
      {entries.map((entry) => (
        <ThreadEntry
          key={entry.id}
          entry={entry}
          people={people}
          projectId={projectId}
          noun={noun}
          canDownload={canDownload}
          onEdit={() => setEditing(entry.id)}
          onDelete={() => onDelete(entry)}
          editor={
            editing === entry.id ? (
              <Editor
                label={`Edit ${noun}`}
                submitLabel="Save"
                people={people}
                projectId={projectId}
                initialText={entry.comment}
                allowAttachments={false}
                autoFocus
                isPending={isSaving}
                onSubmit={({ comment }) => onSave(entry, comment).then(() => setEditing(null))}
                onCancel={() => setEditing(null)}
                onDraftChange={onDraftChange}
              />
            ) : undefined
          }
        />
      ))}
    </ol>
  );
}
