/**
 * The overlay's end of the frame protocol (@redline/shared frame-messages). Only the parent window,
 * at the app origin our script tag names, is listened to; every message is validated by its schema
 * and anything else is dropped without a word (the page, other frames or extensions may post too).
 * Who sent a message is read through the kit's own references: a page redefining MessageEvent's
 * `source` or `origin` cannot pass its messages off as the parent's.
 */
import { listen, messageData, messageOrigin, messageSource, unlisten } from "@redline/inpage";
import {
  frameMessage,
  type OverlayToParent,
  type ParentToOverlayMessage,
  parseParentToOverlay,
} from "@redline/shared";

export interface Messenger {
  post<T extends keyof OverlayToParent & string>(type: T, payload: OverlayToParent[T]): void;
  disconnect(): void;
}

export function connect(appOrigin: string, onMessage: (message: ParentToOverlayMessage) => void): Messenger {
  const parent = window.parent;
  const handleMessage = (event: MessageEvent) => {
    if (messageSource(event) !== parent || messageOrigin(event) !== appOrigin) return;
    const message = parseParentToOverlay(messageData(event));
    if (message) onMessage(message);
  };
  listen(window, "message", handleMessage as EventListener);
  return {
    post(type, payload) {
      // The browser drops it unless the parent really is at the app origin.
      parent.postMessage(frameMessage<OverlayToParent, typeof type>(type, payload), appOrigin);
    },
    disconnect() {
      unlisten(window, "message", handleMessage as EventListener);
    },
  };
}
