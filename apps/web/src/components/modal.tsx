/**
 * The reusable modal (SPEC §2, §4): dimmed background, top-right close button, optional banner image
 * and back button, a full-screen variant. It closes on a background click, the close button, or Escape
 * — except while focus is in an input or text area, where Escape belongs to the field. Page scrolling
 * is locked while it is shown; closing animates for 0.2 s.
 */
import { ArrowLeft, X } from "lucide-react";
import { Dialog } from "radix-ui";
import type { ReactNode, RefObject } from "react";
import "./modal.css";

export interface ModalProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  /** Show the title as a heading (default) or keep it for screen readers only. */
  hideTitle?: boolean;
  description?: ReactNode;
  bannerSrc?: string;
  bannerAlt?: string;
  onBack?: () => void;
  fullScreen?: boolean;
  footer?: ReactNode;
  /** What gets focus on open (default: the first focusable element). */
  initialFocusRef?: RefObject<HTMLElement | null>;
  children?: ReactNode;
}

export function isTypingTarget(element: Element | null): boolean {
  return element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;
}

export function Modal({
  open,
  onOpenChange,
  title,
  hideTitle = false,
  description,
  bannerSrc,
  bannerAlt = "",
  onBack,
  fullScreen = false,
  footer,
  initialFocusRef,
  children,
}: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal__overlay" />
        <Dialog.Content
          className={fullScreen ? "modal__content modal__content--full" : "modal__content"}
          onOpenAutoFocus={(event) => {
            if (!initialFocusRef?.current) return;
            event.preventDefault();
            initialFocusRef.current.focus();
          }}
          onEscapeKeyDown={(event) => {
            if (isTypingTarget(document.activeElement)) event.preventDefault();
          }}
        >
          {bannerSrc ? <img className="modal__banner" src={bannerSrc} alt={bannerAlt} /> : null}
          <div className="modal__bar">
            {onBack ? (
              <button type="button" className="icon-btn modal__back" aria-label="Back" onClick={onBack}>
                <ArrowLeft size={18} aria-hidden />
              </button>
            ) : null}
            <Dialog.Close className="icon-btn modal__close" aria-label="Close">
              <X size={18} aria-hidden />
            </Dialog.Close>
          </div>
          <div className="modal__body">
            <Dialog.Title className={hideTitle ? "visually-hidden" : "modal__title"}>{title}</Dialog.Title>
            {description ? (
              <Dialog.Description className="modal__description">{description}</Dialog.Description>
            ) : (
              <Dialog.Description className="visually-hidden">{title}</Dialog.Description>
            )}
            {children}
          </div>
          {footer ? <div className="modal__footer">{footer}</div> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
