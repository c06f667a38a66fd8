/**
 * Rich text (plain text plus bold / italic / underline ranges, `RichText` in @redline/shared
 * inspect.ts) to DOM and back. A text change is rendered as nodes we build ourselves — text nodes,
 * <b>/<i>/<u> and <br> — never parsed from a string, so a change cannot carry markup into the page.
 * Reading walks an element the reviewer edited in place: b/strong, i/em, u (or the inline styles
 * Chromium's editing commands may write) become marks; <br> and block boundaries become "\n";
 * whitespace collapses as the browser renders it.
 */

import type { FrameChange } from "@redline/shared";
import { createElementIn } from "./dom.ts";

export type RichText = NonNullable<FrameChange["after"]>;
type Mark = RichText["marks"][number]["mark"];

const MARKS: readonly Mark[] = ["b", "i", "u"];
const BOLD = 1;
const ITALIC = 2;
const UNDERLINE = 4;
const BITS = [BOLD, ITALIC, UNDERLINE];
/** The protocol's limits (frameRichTextSchema). */
const MAX_TEXT = 10_000;
const MAX_MARKS = 500;

export function renderRichText(doc: Document, rich: RichText): DocumentFragment {
  const fragment = doc.createDocumentFragment();
  const { text, marks } = rich;
  const clamp = (offset: number) => Math.min(Math.max(offset, 0), text.length);
  const cuts = new Set([0, text.length]);
  for (const mark of marks) cuts.add(clamp(mark.start)).add(clamp(mark.end));
  const points = [...cuts].sort((a, b) => a - b);
  for (let k = 0; k < points.length - 1; k++) {
    const start = points[k]!;
    const end = points[k + 1]!;
    let parent: Node = fragment;
    for (const name of MARKS) {
      if (marks.some((mark) => mark.mark === name && mark.start <= start && mark.end >= end)) {
        parent = parent.appendChild(createElementIn(doc, name));
      }
    }
    text
      .slice(start, end)
      .split("\n")
      .forEach((line, index) => {
        if (index > 0) parent.appendChild(createElementIn(doc, "br"));
        if (line) parent.appendChild(doc.createTextNode(line));
      });
  }
  return fragment;
}

/** The rich text an element shows (its own styling is the base: only marks inside it count). */
export function readRichText(element: Element): RichText {
  const chars: string[] = [];
  const masks: number[] = [];
  const last = () => chars[chars.length - 1];
  const push = (char: string, mask: number) => {
    chars.push(char);
    masks.push(mask);
  };
  const newline = () => {
    if (chars.length > 0 && last() !== "\n") push("\n", 0);
  };

  const walk = (node: Node, mask: number, isPre: boolean) => {
    if (node.nodeType === Node.TEXT_NODE) {
      let data = (node as Text).data;
      if (!isPre) data = data.replace(/[\t\n\r ]+/g, " ");
      for (const char of data.replace(/\u00a0/g, " ")) {
        // Collapsible spaces at the start of a line, or after another space, are not rendered.
        if (!isPre && char === " " && (chars.length === 0 || last() === " " || last() === "\n")) continue;
        for (const unit of char.length === 1 ? [char] : [char[0]!, char[1]!]) push(unit, mask);
      }
      return;
    }
    if (!(node instanceof Element)) return;
    const style = getComputedStyle(node);
    if (style.display === "none") return;
    if (node.localName === "br") {
      push("\n", 0);
      return;
    }
    const isBlock = !style.display.startsWith("inline") && style.display !== "contents";
    const childPre = /^(pre|break-spaces)/.test(style.whiteSpace);
    if (isBlock) newline();
    const own = markOf(node, mask);
    for (const child of node.childNodes) walk(child, own, childPre);
    if (isBlock) newline();
  };
  const rootPre = /^(pre|break-spaces)/.test(getComputedStyle(element).whiteSpace);
  for (const child of element.childNodes) walk(child, 0, rootPre);

  // Spaces before a line break or at the end, and trailing line breaks, are not rendered either.
  const keep: number[] = [];
  for (let index = 0; index < chars.length; index++) {
    if (chars[index] === " ") {
      let next = index + 1;
      while (chars[next] === " ") next++;
      if (next === chars.length || chars[next] === "\n") continue;
    }
    keep.push(index);
  }
  while (keep.length > 0 && chars[keep[keep.length - 1]!] === "\n") keep.pop();
  const kept = keep.slice(0, MAX_TEXT);
  const text = kept.map((index) => chars[index]).join("");
  const keptMasks = kept.map((index) => masks[index]!);

  const marks: RichText["marks"] = [];
  BITS.forEach((bit, b) => {
    let start = -1;
    for (let index = 0; index <= keptMasks.length; index++) {
      const isOn = index < keptMasks.length && (keptMasks[index]! & bit) !== 0;
      if (isOn && start < 0) start = index;
      if (!isOn && start >= 0) {
        marks.push({ mark: MARKS[b]!, start, end: index });
        start = -1;
      }
    }
  });
  marks.sort((x, y) => x.start - y.start || MARKS.indexOf(x.mark) - MARKS.indexOf(y.mark));
  return { text, marks: marks.slice(0, MAX_MARKS) };
}

function markOf(element: Element, mask: number): number {
  const tag = element.localName;
  let result = mask;
  if (tag === "b" || tag === "strong") result |= BOLD;
  if (tag === "i" || tag === "em") result |= ITALIC;
  if (tag === "u") result |= UNDERLINE;
  // Inline styles that editing commands write (styleWithCSS, or un-bolding inside a bold run).
  const style = (element as HTMLElement).style;
  if (style) {
    const weight = style.fontWeight;
    if (weight === "bold" || weight === "bolder" || Number(weight) >= 600) result |= BOLD;
    else if (weight === "normal" || weight === "lighter" || (weight && Number(weight) < 600)) result &= ~BOLD;
    if (style.fontStyle === "italic" || style.fontStyle === "oblique") result |= ITALIC;
    else if (style.fontStyle === "normal") result &= ~ITALIC;
    if (style.textDecorationLine.includes("underline") || style.textDecoration.includes("underline"))
      result |= UNDERLINE;
  }
  return result;
}

/** The text an element shows, as the reviewer reads it (line breaks, no hidden parts). */
export function visibleText(element: Element): string {
  return element instanceof HTMLElement
    ? // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point (SPEC before/after)
      element.innerText
    : (element.textContent ?? "");
}

/** Same text and marks. */
export function isSameRichText(a: RichText, b: RichText): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
