/**
 * The replay chunk, loaded at page load only on sites that opted in (`data-replay="true"`): rrweb
 * records from then on with every input masked, `data-redline-mask` elements blocked and the widget
 * itself left out. A full snapshot every minute starts a new segment; the segments of the last two
 * minutes (with the snapshot each begins with) are what a report attaches.
 */
import { record } from "@rrweb/record";
import type { Recorder } from "./types.ts";

const WINDOW_MS = 2 * 60 * 1000;
const CHECKOUT_MS = 60 * 1000;
const MAX_BYTES = 2 * 1024 * 1024 - 1024;

interface RecordedEvent {
  type: number;
  timestamp: number;
}

export function startRecorder(): Recorder {
  const segments: RecordedEvent[][] = [[]];
  const stop = record({
    emit(event: RecordedEvent, isCheckout?: boolean) {
      if (isCheckout) {
        segments.push([]);
        // A segment still matters while any of it lies within the window.
        while (segments.length > 1 && (segments[1]![0]?.timestamp ?? Date.now()) < Date.now() - WINDOW_MS)
          segments.shift();
      }
      segments[segments.length - 1]!.push(event);
    },
    checkoutEveryNms: CHECKOUT_MS,
    maskAllInputs: true,
    blockSelector: "[data-redline-mask],redline-widget",
    maskTextSelector: "[data-redline-mask]",
    recordCanvas: false,
    collectFonts: false,
  });
  return {
    take() {
      for (let from = 0; from < segments.length; from++) {
        const events = segments.slice(from).flat();
        if (events.length === 0) return null;
        const json = JSON.stringify(events);
        if (new TextEncoder().encode(json).length <= MAX_BYTES) return json;
      }
      return null;
    },
    stop() {
      stop?.();
    },
  };
}
