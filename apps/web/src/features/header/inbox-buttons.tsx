/**
 * Notifications and messages entry points: the bell (features/notifications) and the messages icon with
 * its unread count (features/conversations), both supplied by the layout that composes the header.
 */
import type { ReactNode } from "react";

export function InboxButtons({ bell, messages }: { bell: ReactNode; messages: ReactNode }) {
  return (
    <>
      {bell}
      {messages}
    </>
  );
}
