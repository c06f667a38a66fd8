/**
 * The report's text parts, with the privacy rules applied: an element's text never includes a
 * `data-redline-mask` subtree nor any field's value; an element inside a masked one gives no text at all.
 */
import { describe, normaliseText } from "@redline/anchoring";
import type { Picked } from "@redline/inpage";
import type { AnchorData, TicketReport } from "@redline/shared";
import { browserOf, osOf } from "./environment.ts";
import type { Buffers } from "./types.ts";

export const MASK_SELECTOR = "[data-redline-mask]";
const MAX_TEXT = 300;

/** Visible text of an element, masked subtrees and form fields left out. */
export function maskedText(element: Element): string {
  if (element.closest(MASK_SELECTOR)) return "";
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      parts.push(node.textContent ?? "");
      return;
    }
    if (!(node instanceof Element)) return;
    if (
      node.matches(`${MASK_SELECTOR},input,textarea,select,script,style,noscript,template,[contenteditable]`)
    )
      return;
    for (const child of node.childNodes) walk(child);
  };
  walk(element);
  const text = parts.join(" ").replace(/\s+/g, " ").trim();
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

/**
 * The picked element, named as a comment's pin names one (@redline/anchoring's describe): the anchor finds
 * it again on a newer capture of the page; its shortest unique selector is the readable `selector`.
 */
/**
 * What the privacy rules keep out of a report's text and has text of its own: masked subtrees, text areas,
 * selects, editable regions (an input's value is no text node: no text around an element shows it).
 */
const PRIVATE = `${MASK_SELECTOR},textarea,select,[contenteditable]`;
/** How far up describe() looks for the text around an element (packages/anchoring fingerprint.ts). */
const NEIGHBOUR_DEPTH = 4;

/**
 * The anchor's fingerprint under the report's privacy rules: the element's text is its masked text, and
 * the text around it (or its labels') is left out when private content is among it. Anchoring then leans
 * on the selectors and the rest of the fingerprint, as it does for an element without neighbours.
 */
function privateFree(element: Element, anchor: AnchorData): AnchorData {
  const fingerprint: Record<string, unknown> = {
    ...anchor.fingerprint,
    text: normaliseText(maskedText(element)),
  };
  const hasPrivate = (scope: Element) =>
    scope.matches(PRIVATE) || [...scope.querySelectorAll(PRIVATE)].some((node) => !element.contains(node));
  let neighbourhood: Element | null = element;
  let exposed = element.closest(MASK_SELECTOR) !== null;
  for (let depth = 0; depth < NEIGHBOUR_DEPTH && !exposed; depth++) {
    neighbourhood = neighbourhood?.parentElement ?? null;
    if (!neighbourhood || neighbourhood === document.body) break;
    exposed = hasPrivate(neighbourhood);
  }
  const labels = [...((element as HTMLInputElement).labels ?? [])];
  if (exposed || labels.some(hasPrivate)) fingerprint.neighbourText = "";
  return { ...anchor, fingerprint };
}

export function elementOf(
  element: Element,
  point?: { x: number; y: number },
): NonNullable<TicketReport["element"]> {
  let anchor: AnchorData | null = null;
  try {
    // The schema keeps the fingerprint open (the server stores it as is): an Anchor is one.
    anchor = privateFree(element, describe(element, point) as unknown as AnchorData);
  } catch (error) {
    console.warn("Redline widget: could not name the picked element", error);
  }
  return {
    selector: (anchor?.querySelector ?? element.localName).slice(0, 1000),
    text: maskedText(element),
    tag: element.localName.slice(0, 40),
    anchor,
  };
}

export function buildReport(buffers: Buffers, picked: Picked): TicketReport {
  const ua = navigator.userAgent;
  const { element, region, point } = picked;
  return {
    pageUrl: location.href.slice(0, 2048),
    pageTitle: document.title.slice(0, 300),
    element: element ? elementOf(element, point ?? undefined) : null,
    region,
    viewport: {
      width: Math.max(1, Math.round(innerWidth)),
      height: Math.max(1, Math.round(innerHeight)),
      devicePixelRatio: Math.min(10, Math.max(0.1, devicePixelRatio || 1)),
    },
    userAgent: ua.slice(0, 1000),
    browser: browserOf(ua),
    os: osOf(ua),
    console: buffers.console.slice(),
    failedRequests: buffers.requests.slice(),
  };
}
