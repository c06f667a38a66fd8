/**
 * Notifications and messages entry points. Both areas arrive in later work, so the panels say so
 * plainly: no badge, no invented count.
 */
import { Bell, MessageSquare } from "lucide-react";
import { Popover } from "radix-ui";
import type { ReactNode } from "react";

function InboxPanel({ label, icon, empty }: { label: string; icon: ReactNode; empty: string }) {
  return (
    <Popover.Root>
      <Popover.Trigger className="icon-btn" aria-label={label}>
        {icon}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="menu menu--panel" align="end" sideOffset={8} aria-label={label}>
          <p className="menu__heading">{label}</p>
          <p className="menu__empty">{empty}</p>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

export function InboxButtons() {
  return (
    <>
      <InboxPanel
        label="Notifications"
        icon={<Bell size={18} aria-hidden />}
        empty="You have no notifications. Activity on your projects will show up here."
      />
      <InboxPanel
        label="Messages"
        icon={<MessageSquare size={18} aria-hidden />}
        empty="No conversations yet. Messages from your projects will show up here."
      />
    </>
  );
}
