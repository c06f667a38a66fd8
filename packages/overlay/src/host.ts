/** The one element the overlay adds to the page: <redline-overlay>, with all its UI in a shadow root. */

import { createShadowHost, mountHost, rootOf } from "@redline/inpage";
import { createElementIn } from "./dom.ts";
import { OVERLAY_CSS } from "./styles.ts";

export const HOST_TAG = "redline-overlay";

export interface OverlayHost {
  host: HTMLElement;
  root: ShadowRoot;
  /** Document-sized, clipping container of everything drawn. */
  clip: HTMLDivElement;
  pins: HTMLDivElement;
  highlight: HTMLDivElement;
  /** Inspect mode: the selected element's outline, and the Cmd/Ctrl+hover distances. */
  selection: HTMLDivElement;
  distances: HTMLDivElement;
}

export function createHost(doc: Document): OverlayHost {
  // Open: the page has no scripts of its own (CSP), and tests and debugging can look inside.
  const { host, root } = createShadowHost(doc, HOST_TAG);
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(OVERLAY_CSS);
  root.adoptedStyleSheets = [sheet];

  const clip = div(doc, "clip");
  const pins = div(doc, "pins");
  const highlight = div(doc, "highlight");
  const selection = div(doc, "selection");
  const distances = div(doc, "distances");
  highlight.hidden = selection.hidden = distances.hidden = true;
  clip.append(highlight, selection, distances, pins);
  root.append(clip);
  // Outside <body>: the page's `body > *` rules and the anchoring index never see us.
  mountHost(host, rootOf(doc));
  return { host, root, clip, pins, highlight, selection, distances };
}

function div(doc: Document, className: string): HTMLDivElement {
  const element = createElementIn(doc, "div");
  element.className = className;
  return element;
}
