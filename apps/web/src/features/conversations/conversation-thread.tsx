/**
 * One conversation: its messages (newest last, the reader's own on the right), attachments as downloads,
 * and a composer with an attachment picker. Opening it, and each new message while it is open, marks it
 * read. `conversation` null: a guest who has not written yet (their first message opens it).
 */
import {
  CONVERSATION_TEXTS,
  type Conversation,
  type ConversationAttachment,
  formatBytes,
  isForbiddenAttachment,
  MAX_CONVERSATION_MESSAGE,
  MAX_MESSAGE_ATTACHMENTS,
  MAX_UPLOAD_BYTES,
  MESSAGES,
} from "@redline/shared";
import { Paperclip, Send, X } from "lucide-react";
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { Avatar } from "../../components/avatar.tsx";
import { TextLimitNote, useTextLimit } from "../../components/text-limit.tsx";
import { isApiError } from "../../lib/api.ts";
import { clearSent } from "../../lib/clear-sent.ts";
import { timeAgo } from "../../lib/time-ago.ts";
import {
  downloadAttachment,
  type ThreadSource,
  useMarkRead,
  useMessages,
  useSendMessage,
} from "./conversation-queries.ts";

export function ConversationThread({
  source,
  conversation,
}: {
  source: ThreadSource;
  conversation: Conversation | null;
}) {
  const messages = useMessages(source, conversation !== null);
  const markRead = useMarkRead(source);
  const listRef = useRef<HTMLOListElement>(null);
  const unread = conversation?.unread ?? 0;
  const count = messages.data?.data.length ?? 0;

  // Read on opening, and whenever something new arrives while it shows.
  const { isPending: isMarking, mutate: mark } = markRead;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new message (count) asks again
  useEffect(() => {
    if (unread > 0 && !isMarking) mark();
  }, [unread, count, isMarking, mark]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the newest when one arrives
  useEffect(() => {
    listRef.current?.scrollTo?.({ top: listRef.current.scrollHeight });
  }, [count]);

  const canSend = conversation ? conversation.abilities.send : true;
  const canAttach = conversation ? conversation.abilities.attach : true;
  const participantOf = (uid: string) => conversation?.participants.find((p) => p.uid === uid);

  return (
    <div className="thread">
      {conversation && messages.isPending ? (
        <p className="thread__state">Loading messages…</p>
      ) : messages.isError ? (
        <div className="thread__state" role="alert">
          <p>Messages could not be loaded.</p>
          <button type="button" className="btn btn--ghost" onClick={() => void messages.refetch()}>
            Try again
          </button>
        </div>
      ) : count === 0 ? (
        <p className="thread__state">{CONVERSATION_TEXTS.beginning}</p>
      ) : (
        <ol className="thread__messages" ref={listRef} aria-label="Messages">
          {messages.data!.data.map((message) => {
            const isMine = message.senderId === conversation?.selfUid;
            const sender = participantOf(message.senderId);
            return (
              <li key={message.id} className={isMine ? "message message--mine" : "message"}>
                {isMine ? null : (
                  <Avatar name={message.senderName} photoURL={sender?.photoURL ?? null} size={28} />
                )}
                <div className="message__body">
                  <p className="message__meta">
                    <span className="message__sender">{isMine ? "You" : message.senderName}</span>
                    <time dateTime={message.createdAt}>{timeAgo(message.createdAt)}</time>
                  </p>
                  {message.message ? <p className="message__text">{message.message}</p> : null}
                  {message.attachments.map((attachment) => (
                    <AttachmentLink key={attachment.id} source={source} attachment={attachment} />
                  ))}
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {canSend ? <Composer source={source} canAttach={canAttach} /> : null}
    </div>
  );
}

function AttachmentLink({
  source,
  attachment,
}: {
  source: ThreadSource;
  attachment: ConversationAttachment;
}) {
  return (
    <button
      type="button"
      className="message__file"
      onClick={() => void downloadAttachment(source, attachment).catch(() => undefined)}
    >
      <Paperclip size={14} aria-hidden /> {attachment.name}
      <span className="message__file-size">{formatBytes(attachment.size)}</span>
    </button>
  );
}

function Composer({ source, canAttach }: { source: ThreadSource; canAttach: boolean }) {
  const send = useSendMessage(source);
  const [text, setText] = useState("");
  const [files, setFiles] = useState<{ id: number; file: File }[]>([]);
  const nextId = useRef(0);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const isEmpty = text.trim() === "" && files.length === 0;
  const limit = useTextLimit(text, MAX_CONVERSATION_MESSAGE, "message");

  const handleFiles = (picked: FileList | null) => {
    const chosen = [...(picked ?? [])];
    if (fileInput.current) fileInput.current.value = "";
    if (chosen.some((file) => file.size > MAX_UPLOAD_BYTES)) return setError(MESSAGES.maxFileSize);
    if (chosen.some((file) => isForbiddenAttachment(file))) return setError(CONVERSATION_TEXTS.forbiddenType);
    setError(null);
    const added = chosen.map((file) => ({ id: nextId.current++, file }));
    setFiles((current) => [...current, ...added].slice(0, MAX_MESSAGE_ATTACHMENTS));
  };

  const handleSubmit = (event?: FormEvent) => {
    event?.preventDefault();
    if (isEmpty || limit.isOver || send.isPending) return;
    setError(null);
    const sentFiles = files;
    send.mutate(
      { message: text.trim(), files: sentFiles.map((entry) => entry.file) },
      {
        onSuccess: () => {
          setText(clearSent(text));
          setFiles((current) => current.filter((entry) => !sentFiles.includes(entry)));
        },
        onError: (failure) =>
          setError(isApiError(failure) ? failure.message : "The message could not be sent. Try again."),
      },
    );
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      handleSubmit();
    }
  };

  return (
    <form className="composer-bar" onSubmit={handleSubmit}>
      {files.length > 0 ? (
        <ul className="composer-bar__files" aria-label="Attachments to send">
          {files.map(({ id, file }) => (
            <li key={id} className="composer-bar__file">
              {file.name}
              <button
                type="button"
                className="icon-btn"
                aria-label={`Remove ${file.name}`}
                onClick={() => setFiles((current) => current.filter((entry) => entry.id !== id))}
              >
                <X size={12} aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <p className="composer-bar__error" role="alert">
          {error}
        </p>
      ) : null}
      <TextLimitNote limit={limit} />
      <div className="composer-bar__row">
        {canAttach ? (
          <>
            <button
              type="button"
              className="icon-btn"
              aria-label="Attach a file"
              onClick={() => fileInput.current?.click()}
            >
              <Paperclip size={16} aria-hidden />
            </button>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              data-testid="message-file"
              onChange={(event) => handleFiles(event.target.files)}
            />
          </>
        ) : null}
        <textarea
          className="composer-bar__input"
          aria-label="Message"
          placeholder="Write a message…"
          rows={1}
          value={text}
          {...limit.control}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={handleKeyDown}
        />
        <button
          type="submit"
          className="btn btn--primary composer-bar__send"
          aria-label="Send"
          disabled={isEmpty || limit.isOver || send.isPending}
        >
          <Send size={16} aria-hidden />
        </button>
      </div>
    </form>
  );
}
