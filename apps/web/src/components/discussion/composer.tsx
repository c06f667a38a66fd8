/**
 * Writing an entry of a discussion — a comment or a reply on a page or a slide, a reply on a ticket (issue
 * #29's one composer): a text box with an autocomplete of the project's people after `@` (stored as
 * `{@uid}`, SPEC §5, packages/shared/mentions.ts), files attached before sending (uploaded at once, ≤ 5 MB
 * each), a recorded video where the entry may carry one, and Ctrl/Cmd+Enter to send; Escape closes the
 * mention list, or cancels, and goes no further (a drawer or a workspace around it stays). `onDraftChange`
 * tells a workspace someone is typing, so new pins from others wait instead of moving under the cursor.
 * Each subject says its own length limit and what the limit counts ("comment", "reply").
 */
import {
  type Attachment,
  MAX_ATTACHMENTS,
  MESSAGES,
  type MentionPerson,
  mentionQuery,
  toEditableText,
  toStoredText,
  type VideoInput,
} from "@redline/shared";
import { Paperclip, X } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { uploadAttachment } from "../../lib/attachments.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { clearSent } from "../../lib/clear-sent.ts";
import { isTooLarge } from "../../lib/files.ts";
import { Avatar } from "../avatar.tsx";
import { TextLimitNote, useTextLimit } from "../text-limit.tsx";
import { showPlanRefusal } from "../upgrade-prompt-store.ts";
import { AttachedVideo, RecordVideoButton, videoInputOf } from "../video/video-attach.tsx";
import type { RecordedVideo, VideoTarget } from "../video/video-recorder-modal.tsx";
import "./composer.css";

export interface ComposerSubmit {
  comment: string;
  attachments: Attachment[];
  /** A recorded video, uploaded (video-recorder-modal.tsx). */
  video?: VideoInput;
}

export interface ComposerProps {
  label: string;
  submitLabel: string;
  /** The project's people for mentions; null when they cannot be listed (guests). */
  people: MentionPerson[] | null;
  projectId: string;
  /** Stored text to edit (mentions as `{@uid}`). */
  initialText?: string;
  allowAttachments: boolean;
  /** Where a recorded video goes; null records none. */
  videoTarget?: VideoTarget | null;
  autoFocus?: boolean;
  isPending?: boolean;
  /** Resolves when sent: the composer then empties itself. */
  onSubmit(input: ComposerSubmit): Promise<unknown>;
  onCancel?: () => void;
  onDraftChange?: (hasDraft: boolean) => void;
  /** Another class on the composer's box, for where it sits. */
  className?: string;
}

/** The subject's own rule: how long its text may be, and what the limit's note calls it. */
export interface ComposerLimit {
  maxLength: number;
  noun: string;
}

export function Composer({
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
  onDraftChange,
  className,
  maxLength,
  noun,
}: ComposerProps & ComposerLimit) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [initial] = useState(() => toEditableText(initialText, people ?? []));
  const [text, setText] = useState(initial.text);
  const inserted = useRef<MentionPerson[]>(initial.inserted);
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [uploading, setUploading] = useState(0);
  const [video, setVideo] = useState<RecordedVideo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  // Mentions are stored as {@uid}: the limit counts the text as it will be stored.
  const limit = useTextLimit(toStoredText(text, inserted.current), maxLength, noun);

  const hasDraft = text.trim().length > 0 || attachments.length > 0 || video !== null;
  useEffect(() => onDraftChange?.(hasDraft), [hasDraft, onDraftChange]);
  useEffect(() => () => onDraftChange?.(false), [onDraftChange]);

  const matches =
    query && people
      ? people
          .filter((person) => person.displayName.toLowerCase().includes(query.query.toLowerCase()))
          .slice(0, 6)
      : [];
  const isListOpen = matches.length > 0;

  const updateQuery = (value: string, caret: number) => {
    setQuery(people ? mentionQuery(value, caret) : null);
    setActive(0);
  };

  const pick = (person: MentionPerson) => {
    if (!query) return;
    const caret = box.current?.selectionStart ?? text.length;
    const insert = `@${person.displayName} `;
    const next = text.slice(0, query.start) + insert + text.slice(caret);
    if (!inserted.current.some((entry) => entry.uid === person.uid)) inserted.current.push(person);
    setText(next);
    setQuery(null);
    const position = query.start + insert.length;
    requestAnimationFrame(() => {
      box.current?.focus();
      box.current?.setSelectionRange(position, position);
    });
  };

  const submit = async () => {
    const body = toStoredText(text.trim(), inserted.current);
    if (!body || limit.isOver || isPending || uploading > 0) return;
    setError(null);
    try {
      await onSubmit({ comment: body, attachments, ...(video && { video: videoInputOf(video) }) });
      setVideo(null);
      // What was typed or attached while it was sent stays, with the mentions it may hold.
      if (box.current?.value === text) inserted.current = [];
      setText(clearSent(text));
      setAttachments((current) => current.filter((file) => !attachments.includes(file)));
    } catch {
      // The mutation shows its own message; the draft stays to try again.
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
    <div className={className ? `composer ${className}` : "composer"}>
      <label className="visually-hidden" htmlFor={`${id}-text`}>
        {label}
      </label>
      <div className="composer__field">
        <textarea
          id={`${id}-text`}
          ref={box}
          className="input composer__text"
          rows={3}
          placeholder={people ? `${label} (type @ to mention)` : label}
          value={text}
          // biome-ignore lint/a11y/noAutofocus: the composer opens because the user just asked to write
          autoFocus={autoFocus}
          role="combobox"
          aria-autocomplete={people ? "list" : "none"}
          aria-expanded={isListOpen}
          aria-controls={listId}
          aria-activedescendant={isListOpen ? `${listId}-${active}` : undefined}
          aria-invalid={error || limit.isOver ? true : undefined}
          aria-describedby={limit.describedBy(error ? `${id}-error` : null)}
          onChange={(event) => {
            setText(event.target.value);
            updateQuery(event.target.value, event.target.selectionStart);
          }}
          onKeyDown={handleKeyDown}
          onBlur={() => setTimeout(() => setQuery(null), 150)}
        />
        <div id={listId} className="composer__people" role="listbox" aria-label="People" hidden={!isListOpen}>
          {matches.map((person, index) => (
            <div
              key={person.uid}
              id={`${listId}-${index}`}
              role="option"
              tabIndex={-1}
              aria-selected={index === active}
              className="composer__person"
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
        <ul className="composer__files" aria-label="Attached files">
          {video ? <AttachedVideo video={video} onRemove={() => setVideo(null)} /> : null}
          {attachments.map((file) => (
            <li key={file.path} className="composer__file">
              <span className="composer__file-name">{file.name}</span>
              <button
                type="button"
                className="icon-btn composer__remove"
                aria-label={`Remove ${file.name}`}
                onClick={() => setAttachments((current) => current.filter((entry) => entry !== file))}
              >
                <X size={14} aria-hidden />
              </button>
            </li>
          ))}
          {uploading > 0 ? (
            <li className="composer__file" aria-live="polite">
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
      <div className="composer__actions">
        {allowAttachments ? (
          <label
            className={`icon-btn composer__attach${attachments.length >= MAX_ATTACHMENTS ? " is-disabled" : ""}`}
          >
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
          <RecordVideoButton target={videoTarget} disabled={video !== null} onAttach={setVideo} />
        ) : null}
        <span className="composer__spacer" />
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
