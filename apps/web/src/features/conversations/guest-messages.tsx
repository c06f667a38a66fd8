/**
 * Messages on a shared page: a guest of the public link writes to the project's people. The button
 * shows the guest's unread count; the guest's realtime socket keeps both live.
 */
import { MessageSquare } from "lucide-react";
import { Popover } from "radix-ui";
import { useMemo, useState } from "react";
import { guestSource, useConversation } from "./conversation-queries.ts";
import { ConversationThread } from "./conversation-thread.tsx";
import { messagesLabel, UnreadBadge } from "./unread-badge.tsx";
import { useGuestConversationRealtime } from "./use-guest-conversation-realtime.ts";
import "./conversations.css";

export function GuestMessages({ projectId, identity }: { projectId: string; identity: string }) {
  const source = useMemo(() => guestSource(projectId, identity), [projectId, identity]);
  const [isOpen, setOpen] = useState(false);
  const conversation = useConversation(source);
  useGuestConversationRealtime(projectId, source, conversation.data?.id ?? null);
  const unread = conversation.data?.unread ?? 0;
  return (
    <Popover.Root open={isOpen} onOpenChange={setOpen}>
      <Popover.Trigger className="btn btn--ghost messages-button" aria-label={messagesLabel(unread)}>
        <MessageSquare size={16} aria-hidden /> Messages
        <UnreadBadge unread={unread} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="conversations" align="end" sideOffset={8} aria-label="Messages">
          <div className="conversations__head">
            <div className="conversations__titles">
              <h2 className="conversations__title">{conversation.data?.title ?? "Messages"}</h2>
              <p className="conversations__subtitle">The people of this project read and answer here.</p>
            </div>
          </div>
          {conversation.isPending ? (
            <p className="conversations__state">Loading messages…</p>
          ) : conversation.isError ? (
            <p className="conversations__state" role="alert">
              Messages could not be loaded.
            </p>
          ) : (
            <ConversationThread source={source} conversation={conversation.data} />
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
