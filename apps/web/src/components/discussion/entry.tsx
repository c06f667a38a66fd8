/**
 * One entry of a discussion — a comment's or a ticket's (issue #29's one entry component): its author, when
 * it was written and edited, the text with its mentions, a recorded video, the attached files, and the
 * author's Edit and Delete. While it is edited, the subject's composer (`editor`) stands in for the text.
 */
import { type CommentEntry, formatBytes, type MentionPerson, mentionParts } from "@redline/shared";
import { Download, Pencil, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { attachmentUrl } from "../../lib/attachments.ts";
import { timeAgo } from "../../lib/time-ago.ts";
import { Avatar } from "../avatar.tsx";
import { VideoPlayer } from "../video/video-player.tsx";
import "./entry.css";

/** What an entry shows: a comment's and a ticket's entries both have it. */
export type DiscussionEntry = Omit<CommentEntry, "abilities" | "userId"> & {
  abilities: { edit: boolean; delete: boolean };
};

/** A text with its `{@uid}` mentions drawn as the people's names. */
export function MentionText({ text, people }: { text: string; people: MentionPerson[] | null }) {
  return (
    <>
      {mentionParts(text, people).map((part, index) =>
        part.kind === "text" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one text never reorder
          <span key={index}>{part.text}</span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one text never reorder
          <span key={index} className="mention">
            {part.name}
          </span>
        ),
      )}
    </>
  );
}

export function ThreadEntry({
  entry,
  people,
  projectId,
  noun,
  editor,
  canDownload,
  onEdit,
  onDelete,
}: {
  entry: DiscussionEntry;
  people: MentionPerson[] | null;
  projectId: string;
  /** What the entry is called on its Edit and Delete buttons ("comment", "message"). */
  noun: string;
  /** The composer editing this entry, while it is edited. */
  editor?: ReactNode;
  /** Whether its files may be downloaded (else their names only). */
  canDownload: boolean;
  onEdit(): void;
  onDelete(): void;
}) {
  return (
    <li className="entry">
      <div className="entry__head">
        <Avatar name={entry.author.displayName} photoURL={entry.author.photoURL} size={24} />
        <span className="entry__author">{entry.author.displayName}</span>
        {entry.author.isGuest ? <span className="tag">Guest</span> : null}
        <time className="entry__time" dateTime={entry.createdAt} title={entry.createdAt}>
          {timeAgo(entry.createdAt)}
        </time>
        {entry.editedAt ? <span className="entry__edited">(edited)</span> : null}
        <span className="entry__spacer" />
        {entry.abilities.edit && !editor ? (
          <button
            type="button"
            className="icon-btn entry__action"
            aria-label={`Edit ${noun}`}
            onClick={onEdit}
          >
            <Pencil size={14} aria-hidden />
          </button>
        ) : null}
        {entry.abilities.delete ? (
          <button
            type="button"
            className="icon-btn entry__action"
            aria-label={`Delete ${noun}`}
            onClick={onDelete}
          >
            <Trash2 size={14} aria-hidden />
          </button>
        ) : null}
      </div>
      {editor ?? (
        <p className="entry__text">
          <MentionText text={entry.comment} people={people} />
        </p>
      )}
      <VideoPlayer entry={entry} label={`Video ${noun}`} />
      {entry.attachments.length > 0 ? (
        <ul className="entry__files" aria-label="Attachments">
          {entry.attachments.map((file) => (
            <li key={file.path}>
              {canDownload ? (
                <a className="entry__file" href={attachmentUrl(projectId, file)} download={file.name}>
                  <Download size={14} aria-hidden /> {file.name}
                  <span className="entry__file-size">{formatBytes(file.size)}</span>
                </a>
              ) : (
                <span className="entry__file">{file.name}</span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
