/**
 * The overlay's end of the frame protocol (@redline/shared frame-messages). Only the parent window,
 * at the app origin our script tag names, is listened to; every message is validated by its schema
 * and anything else is dropped without a word (the page, other frames or extensions may post too).
 */
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
    if (event.source !== parent || event.origin !== appOrigin) return;
    const message = parseParentToOverlay(event.data);
    if (message) onMessage(message);
  };
  window.addEventListener("message", handleMessage);
  return {
    post(type, payload) {
      // The browser drops it unless the parent really is at the app origin.
      parent.postMessage(frameMessage<OverlayToParent, typeof type>(type, payload), appOrigin);
    },
    disconnect() {
      window.removeEventListener("message", handleMessage);
    },
  };
}
