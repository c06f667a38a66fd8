/**
 * The header's messages icon (SPEC §2) with the unread count ('9+' above 9), opening the messages panel:
 * the conversations list, then a conversation's thread. 'Need help?' opens it on the support conversation.
 */
import { CONVERSATION_TEXTS } from "@redline/shared";
import { ArrowLeft, MessageSquare, SquarePen } from "lucide-react";
import { Popover } from "radix-ui";
import { useState } from "react";
import { ConversationList } from "./conversation-list.tsx";
import { memberSource, useConversations, useUnreadCount } from "./conversation-queries.ts";
import { ConversationThread } from "./conversation-thread.tsx";
import { setMessagesPanel, useMessagesPanel } from "./messages-store.ts";
import { NewConversation } from "./new-conversation.tsx";
import { messagesLabel, UnreadBadge } from "./unread-badge.tsx";
import { useConversationsRealtime } from "./use-conversations-realtime.ts";
import "./conversations.css";

export function MessagesButton() {
  useConversationsRealtime();
  const unread = useUnreadCount().data ?? 0;
  const { isOpen, conversationId } = useMessagesPanel();
  return (
    <Popover.Root open={isOpen} onOpenChange={(open) => setMessagesPanel({ isOpen: open })}>
      <Popover.Trigger className="icon-btn messages-button" aria-label={messagesLabel(unread)}>
        <MessageSquare size={18} aria-hidden />
        <UnreadBadge unread={unread} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="conversations" align="end" sideOffset={8} aria-label="Messages">
          {conversationId ? <ThreadPanel conversationId={conversationId} /> : <ListPanel />}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function ListPanel() {
  const conversations = useConversations();
  const [isComposing, setComposing] = useState(false);
  if (isComposing)
    return (
      <>
        <div className="conversations__head">
          <button
            type="button"
            className="icon-btn"
            aria-label="Back to conversations"
            onClick={() => setComposing(false)}
          >
            <ArrowLeft size={16} aria-hidden />
          </button>
          <h2 className="conversations__title">New conversation</h2>
        </div>
        <NewConversation
          onStarted={(conversation) => setMessagesPanel({ conversationId: conversation.id })}
        />
      </>
    );
  return (
    <>
      <div className="conversations__head">
        <h2 className="conversations__title">Messages</h2>
        <button
          type="button"
          className="icon-btn conversations__new"
          aria-label="New conversation"
          onClick={() => setComposing(true)}
        >
          <SquarePen size={16} aria-hidden />
        </button>
      </div>
      {conversations.isPending ? (
        <p className="conversations__state">Loading conversations…</p>
      ) : conversations.isError ? (
        <div className="conversations__state" role="alert">
          <p>Conversations could not be loaded.</p>
          <button type="button" className="btn btn--ghost" onClick={() => void conversations.refetch()}>
            Try again
          </button>
        </div>
      ) : conversations.data.length === 0 ? (
        <p className="conversations__state">
          No conversations yet. Messages from your projects will show up here.
        </p>
      ) : (
        <ConversationList
          conversations={conversations.data}
          onOpen={(conversation) => setMessagesPanel({ conversationId: conversation.id })}
        />
      )}
    </>
  );
}

function ThreadPanel({ conversationId }: { conversationId: string }) {
  const conversations = useConversations();
  const conversation = conversations.data?.find((entry) => entry.id === conversationId) ?? null;
  const subtitle =
    conversation?.kind === "support"
      ? conversation.title === CONVERSATION_TEXTS.support
        ? "The people who run Redline answer here."
        : "Need help?"
      : conversation?.projectTitle;
  return (
    <>
      <div className="conversations__head">
        <button
          type="button"
          className="icon-btn"
          aria-label="Back to conversations"
          onClick={() => setMessagesPanel({ conversationId: null })}
        >
          <ArrowLeft size={16} aria-hidden />
        </button>
        <div className="conversations__titles">
          <h2 className="conversations__title">{conversation?.title ?? "Messages"}</h2>
          {subtitle ? <p className="conversations__subtitle">{subtitle}</p> : null}
        </div>
      </div>
      {conversation ? (
        <ConversationThread source={memberSource(conversationId)} conversation={conversation} />
      ) : conversations.isPending ? (
        <p className="conversations__state">Loading messages…</p>
      ) : (
        <p className="conversations__state" role="alert">
          This conversation is no longer available.
        </p>
      )}
    </>
  );
}
