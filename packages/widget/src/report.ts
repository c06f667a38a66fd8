/**
 * The report's text parts, with the privacy rules applied: an element's text never includes a
 * `data-redline-mask` subtree nor any field's value; an element inside a masked one gives no text at all.
 */
import type { TicketReport } from "@redline/shared";
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

const isStableId = (id: string) => /^[A-Za-z][\w-]*$/.test(id) && !/\d{3,}/.test(id);

/** A CSS selector for the element: up to an id, otherwise tag and position, at most 8 steps. */
export function selectorOf(element: Element): string {
  const steps: string[] = [];
  let current: Element | null = element;
  while (current && current !== document.documentElement && steps.length < 8) {
    if (
      current.id &&
      isStableId(current.id) &&
      document.querySelectorAll(`#${CSS.escape(current.id)}`).length === 1
    ) {
      steps.unshift(`#${CSS.escape(current.id)}`);
      return steps.join(" > ");
    }
    const tag = current.localName;
    const parent: Element | null = current.parentElement;
    const siblings = parent ? [...parent.children].filter((child) => child.localName === tag) : [];
    steps.unshift(siblings.length > 1 ? `${tag}:nth-of-type(${siblings.indexOf(current) + 1})` : tag);
    current = parent;
  }
  return steps.join(" > ");
}

export function buildReport(
  buffers: Buffers,
  picked: { element: Element | null; region: { x: number; y: number; width: number; height: number } | null },
): TicketReport {
  const ua = navigator.userAgent;
  const { element, region } = picked;
  return {
    pageUrl: location.href.slice(0, 2048),
    pageTitle: document.title.slice(0, 300),
    element: element
      ? {
          selector: selectorOf(element).slice(0, 1000),
          text: maskedText(element),
          tag: element.localName.slice(0, 40),
        }
      : null,
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
