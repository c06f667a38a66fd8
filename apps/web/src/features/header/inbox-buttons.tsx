/**
 * Notifications and messages entry points: the bell (features/notifications) and the messages icon with
 * its unread count (features/conversations).
 */
import type { ReactNode } from "react";
import { MessagesButton } from "../conversations/messages-button.tsx";

/** `bell`: the notifications bell, supplied by the layout that composes the header. */
export function InboxButtons({ bell }: { bell: ReactNode }) {
  return (
    <>
      {bell}
      <MessagesButton />
    </>
  );
}
