/**
 * Writing a reply on a ticket: a text box with an autocomplete of the board's people after `@` (stored as
 * `{@uid}`, SPEC §5, packages/shared/mentions.ts), files attached before sending (uploaded at once, ≤ 5 MB
 * each), a recorded video where the reply may carry one, and Ctrl/Cmd+Enter to send. The same habits
 * (and the same recorder) as the comment composer of website review.
 */
import {
  type Attachment,
  MAX_ATTACHMENTS,
  MAX_TICKET_ENTRY,
  MESSAGES,
  type MentionPerson,
  mentionQuery,
  toEditableText,
  toStoredText,
  type VideoInput,
} from "@redline/shared";
import { Paperclip, X } from "lucide-react";
import { type KeyboardEvent, useId, useRef, useState } from "react";
import { Avatar } from "../../components/avatar.tsx";
import { TextLimitNote, useTextLimit } from "../../components/text-limit.tsx";
import { showPlanRefusal } from "../../components/upgrade-prompt-store.ts";
import { AttachedVideo, RecordVideoButton, videoInputOf } from "../../components/video/video-attach.tsx";
import type { RecordedVideo, VideoTarget } from "../../components/video/video-recorder-modal.tsx";
import { errorMessage } from "../../lib/auth-client.ts";
import { clearSent } from "../../lib/clear-sent.ts";
import { isTooLarge } from "../../lib/files.ts";
import { uploadAttachment } from "../comments/comment-queries.ts";

export function TicketComposer({
  label,
  submitLabel,
  people,
  projectId,
  initialText = "",
  allowAttachments,
  videoTarget = null,
  autoFocus = false,
  isPending = false,
  onSubmit,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  people: MentionPerson[];
  projectId: string;
  initialText?: string;
  allowAttachments: boolean;
  /** Where a recorded video goes (the ticket's uploads); null records none. */
  videoTarget?: VideoTarget | null;
  autoFocus?: boolean;
  isPending?: boolean;
  onSubmit(input: { comment: string; attachments: Attachment[]; video?: VideoInput }): Promise<unknown>;
  onCancel?: () => void;
}) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [initial] = useState(() => toEditableText(initialText, people));
  const [text, setText] = useState(initial.text);
  const inserted = useRef<MentionPerson[]>(initial.inserted);
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [uploading, setUploading] = useState(0);
  const [video, setVideo] = useState<RecordedVideo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  // Mentions are stored as {@uid}: the limit counts the text as it will be stored.
  const limit = useTextLimit(toStoredText(text, inserted.current), MAX_TICKET_ENTRY, "reply");

  const matches = query
    ? people
        .filter((person) => person.displayName.toLowerCase().includes(query.query.toLowerCase()))
        .slice(0, 6)
    : [];
  const isListOpen = matches.length > 0;

  const pick = (person: MentionPerson) => {
    if (!query) return;
    const caret = box.current?.selectionStart ?? text.length;
    const insert = `@${person.displayName} `;
    setText(text.slice(0, query.start) + insert + text.slice(caret));
    if (!inserted.current.some((entry) => entry.uid === person.uid)) inserted.current.push(person);
    setQuery(null);
    const position = query.start + insert.length;
    requestAnimationFrame(() => {
      box.current?.focus();
      box.current?.setSelectionRange(position, position);
    });
  };

  const submit = async () => {
    const comment = toStoredText(text.trim(), inserted.current);
    if (!comment || limit.isOver || isPending || uploading > 0) return;
    setError(null);
    try {
      await onSubmit({ comment, attachments, ...(video && { video: videoInputOf(video) }) });
      setVideo(null);
      // What was typed or attached while it was sent stays, with the mentions it may hold.
      if (box.current?.value === text) inserted.current = [];
      setText(clearSent(text));
      setAttachments((current) => current.filter((file) => !attachments.includes(file)));
    } catch {
      // The mutation says what went wrong; the draft stays to try again.
    }
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (isListOpen) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive((current) => (current + step + matches.length) % matches.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        pick(matches[active] ?? matches[0]!);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        setQuery(null);
        return;
      }
    }
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      void submit();
    } else if (event.key === "Escape" && onCancel) {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  };

  const addFiles = async (files: FileList | null) => {
    if (!files) return;
    const list = [...files].slice(0, MAX_ATTACHMENTS - attachments.length);
    if (list.some(isTooLarge)) {
      setError(MESSAGES.maxFileSize);
      return;
    }
    setError(null);
    setUploading((count) => count + list.length);
    for (const file of list) {
      try {
        const { data } = await uploadAttachment(projectId, file);
        setAttachments((current) => [...current, data]);
      } catch (uploadError) {
        if (!showPlanRefusal(uploadError)) setError(errorMessage(uploadError));
      } finally {
        setUploading((count) => count - 1);
      }
    }
  };

  const listId = `${id}-people`;
  return (
    <div className="ticket-composer">
      <label className="visually-hidden" htmlFor={`${id}-text`}>
        {label}
      </label>
      <div className="ticket-composer__field">
        <textarea
          id={`${id}-text`}
          ref={box}
          className="input ticket-composer__text"
          rows={3}
          placeholder={`${label} (type @ to mention)`}
          value={text}
          // biome-ignore lint/a11y/noAutofocus: the editor opens because the user asked to edit
          autoFocus={autoFocus}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={isListOpen}
          aria-controls={listId}
          aria-activedescendant={isListOpen ? `${listId}-${active}` : undefined}
          aria-invalid={error || limit.isOver ? true : undefined}
          aria-describedby={limit.describedBy(error ? `${id}-error` : null)}
          onChange={(event) => {
            setText(event.target.value);
            setQuery(mentionQuery(event.target.value, event.target.selectionStart));
            setActive(0);
          }}
          onKeyDown={handleKeyDown}
          onBlur={() => setTimeout(() => setQuery(null), 150)}
        />
        <div
          id={listId}
          className="ticket-composer__people"
          role="listbox"
          aria-label="People"
          hidden={!isListOpen}
        >
          {matches.map((person, index) => (
            <div
              key={person.uid}
              id={`${listId}-${index}`}
              role="option"
              tabIndex={-1}
              aria-selected={index === active}
              className="ticket-composer__person"
              onMouseDown={(event) => {
                event.preventDefault();
                pick(person);
              }}
            >
              <Avatar name={person.displayName} photoURL={null} size={20} />
              {person.displayName}
            </div>
          ))}
        </div>
      </div>
      {attachments.length > 0 || uploading > 0 || video ? (
        <ul className="ticket-composer__files" aria-label="Attached files">
          {video ? (
            <AttachedVideo video={video} onRemove={() => setVideo(null)} block="ticket-composer" />
          ) : null}
          {attachments.map((file) => (
            <li key={file.path} className="ticket-composer__file">
              <span>{file.name}</span>
              <button
                type="button"
                className="icon-btn ticket-composer__remove"
                aria-label={`Remove ${file.name}`}
                onClick={() => setAttachments((current) => current.filter((entry) => entry !== file))}
              >
                <X size={14} aria-hidden />
              </button>
            </li>
          ))}
          {uploading > 0 ? (
            <li className="ticket-composer__file" aria-live="polite">
              Uploading {uploading === 1 ? "1 file" : `${uploading} files`}...
            </li>
          ) : null}
        </ul>
      ) : null}
      <TextLimitNote limit={limit} />
      {error ? (
        <p id={`${id}-error`} className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="ticket-composer__actions">
        {allowAttachments ? (
          <label className={`icon-btn${attachments.length >= MAX_ATTACHMENTS ? " is-disabled" : ""}`}>
            <Paperclip size={16} aria-hidden />
            <span className="visually-hidden">Attach files</span>
            <input
              type="file"
              multiple
              className="visually-hidden"
              disabled={attachments.length >= MAX_ATTACHMENTS}
              onChange={(event) => {
                void addFiles(event.target.files);
                event.target.value = "";
              }}
            />
          </label>
        ) : null}
        {videoTarget ? (
          <RecordVideoButton
            target={videoTarget}
            disabled={video !== null}
            onAttach={setVideo}
            className="icon-btn"
          />
        ) : null}
        <span className="ticket-composer__spacer" />
        {onCancel ? (
          <button type="button" className="btn btn--ghost" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn--primary"
          disabled={!text.trim() || limit.isOver || isPending || uploading > 0}
          onClick={() => void submit()}
        >
          {isPending ? "Sending..." : submitLabel}
        </button>
      </div>
    </div>
  );
}
