/** A side panel (e.g. keyboard shortcuts): same closing rules as the Modal, sliding in from the right. */
import { X } from "lucide-react";
import { Dialog } from "radix-ui";
import type { ReactNode } from "react";
import { isTypingTarget } from "./modal.tsx";
import "./drawer.css";

export function Drawer({
  open,
  onOpenChange,
  title,
  children,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="drawer__overlay" />
        <Dialog.Content
          className="drawer"
          aria-describedby={undefined}
          onEscapeKeyDown={(event) => {
            if (isTypingTarget(document.activeElement)) event.preventDefault();
          }}
        >
          <header className="drawer__header">
            <Dialog.Title className="drawer__title">{title}</Dialog.Title>
            <Dialog.Close className="icon-btn" aria-label="Close">
              <X size={18} aria-hidden />
            </Dialog.Close>
          </header>
          <div className="drawer__body">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
