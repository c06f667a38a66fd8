import { badgeCount } from "@redline/shared";

/** The trigger's accessible name, with the unread count when there is one. */
export const messagesLabel = (unread: number) =>
  unread > 0 ? `Messages (${badgeCount(unread)} unread)` : "Messages";

/** The unread count on a messages trigger ('9+' above 9), or nothing. */
export function UnreadBadge({ unread }: { unread: number }) {
  if (unread <= 0) return null;
  return (
    <span className="messages-button__badge" data-testid="messages-badge" aria-hidden>
      {badgeCount(unread)}
    </span>
  );
}
