/**
 * Notifications and messages entry points. Notifications are live (features/notifications); messages
 * arrive in later work, so that panel says so plainly: no badge, no invented count.
 */
import { MessageSquare } from "lucide-react";
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

/** `bell`: the notifications bell, supplied by the layout that composes the header. */
export function InboxButtons({ bell }: { bell: ReactNode }) {
  return (
    <>
      {bell}
      <InboxPanel
        label="Messages"
        icon={<MessageSquare size={18} aria-hidden />}
        empty="No conversations yet. Messages from your projects will show up here."
      />
    </>
  );
}
