/** The reader's conversations, newest first: who (SPEC §3 title), the preview, when, and unread ones marked. */
import type { Conversation } from "@redline/shared";
import { Avatar } from "../../components/avatar.tsx";
import { timeAgo } from "../../lib/time-ago.ts";

export function ConversationList({
  conversations,
  onOpen,
}: {
  conversations: Conversation[];
  onOpen: (conversation: Conversation) => void;
}) {
  return (
    <ul className="conversations__list" aria-label="Conversations">
      {conversations.map((conversation) => {
        const other = conversation.participants.find((p) => p.uid !== conversation.selfUid);
        return (
          <li key={conversation.id}>
            <button
              type="button"
              className={
                conversation.read ? "conversation-item" : "conversation-item conversation-item--unread"
              }
              onClick={() => onOpen(conversation)}
            >
              <Avatar name={conversation.title} photoURL={other?.photoURL ?? null} size={36} />
              <span className="conversation-item__body">
                <span className="conversation-item__head">
                  <span className="conversation-item__title">{conversation.title}</span>
                  <time className="conversation-item__time" dateTime={conversation.updatedAt}>
                    {timeAgo(conversation.updatedAt)}
                  </time>
                </span>
                {conversation.projectTitle ? (
                  <span className="conversation-item__project">{conversation.projectTitle}</span>
                ) : null}
                <span className="conversation-item__preview">{conversation.preview}</span>
              </span>
              {conversation.unread > 0 ? (
                <span className="conversation-item__count">
                  {conversation.unread}
                  <span className="visually-hidden"> unread</span>
                </span>
              ) : null}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
