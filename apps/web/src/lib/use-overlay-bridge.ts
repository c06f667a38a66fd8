/**
 * The app's end of the frame protocol (@redline/shared frame-messages) with the overlay inside the
 * sandboxed snapshot. The snapshot runs in an opaque origin, so a message is trusted only when it comes
 * from this frame's own window (`event.source === iframe.contentWindow`) and passes its schema; we
 * post with targetOrigin "*" (an opaque origin cannot be named) and only after the overlay said
 * `overlay:ready` for the document now loaded. `generation` counts those: effects that send state
 * depend on it, so a reloaded frame gets everything again.
 */
import {
  frameMessage,
  type OverlayToParentMessage,
  type ParentToOverlay,
  parseOverlayToParent,
} from "@redline/shared";
import { useCallback, useEffect, useRef, useState } from "react";

export interface OverlayBridge {
  /** Give this to the iframe's `ref`. */
  frameRef: (frame: HTMLIFrameElement | null) => void;
  /** 0 until the overlay is ready; bumped at each ready (a new document in the frame). */
  generation: number;
  post<T extends keyof ParentToOverlay & string>(type: T, payload: ParentToOverlay[T]): void;
}

export function useOverlayBridge(onMessage: (message: OverlayToParentMessage) => void): OverlayBridge {
  const frame = useRef<HTMLIFrameElement | null>(null);
  const readyWindow = useRef<Window | null>(null);
  const [generation, setGeneration] = useState(0);
  const handler = useRef(onMessage);
  handler.current = onMessage;

  useEffect(() => {
    const handleMessage = (event: MessageEvent) => {
      const source = frame.current?.contentWindow;
      if (!source || event.source !== source) return;
      const message = parseOverlayToParent(event.data);
      if (!message) return;
      if (message.type === "overlay:ready") {
        readyWindow.current = source;
        setGeneration((current) => current + 1);
      }
      handler.current(message);
    };
    window.addEventListener("message", handleMessage);
    return () => window.removeEventListener("message", handleMessage);
  }, []);

  const frameRef = useCallback((element: HTMLIFrameElement | null) => {
    frame.current = element;
    if (!element) readyWindow.current = null;
  }, []);

  const post = useCallback(
    <T extends keyof ParentToOverlay & string>(type: T, payload: ParentToOverlay[T]) => {
      const target = frame.current?.contentWindow;
      if (!target || target !== readyWindow.current) return;
      target.postMessage(frameMessage<ParentToOverlay, T>(type, payload), "*");
    },
    [],
  );

  return { frameRef, generation, post };
}
