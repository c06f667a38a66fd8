/**
 * Reading an element's fingerprint. `readBasic` is what every candidate needs (attributes and own
 * text, no layout); `readContext` is the costlier part (neighbour text, layout box, ancestry) read
 * only for the few best candidates. describe() and anchor() share these readers, so a stored
 * fingerprint and a live candidate are always measured the same way.
 */
import { rectOf } from "@redline/inpage";
import { isStableValue, isUnstableId, isUtilityClass, stableClasses } from "./stability.ts";
import { MAX_TEXT, normaliseText } from "./text.ts";
import type { Fingerprint, Rect } from "./types.ts";

/** Attributes that name an element for tests; equal values are near-proof of identity. */
export const TEST_ID_ATTRIBUTES = [
  "data-testid",
  "data-test-id",
  "data-test",
  "data-cy",
  "data-qa",
  "data-automation-id",
] as const;

const KEPT_ATTRIBUTES = new Set([
  ...TEST_ID_ATTRIBUTES,
  "type",
  "placeholder",
  "title",
  "for",
  "action",
  "method",
  "rel",
  "itemprop",
  "aria-haspopup",
  "autocomplete",
]);

/** data-* attributes that frameworks use for bookkeeping or state, not identity. */
const NOISE_DATA =
  /^data-(reactid|reactroot|v-|emotion|styled|radix|state|headlessui|orientation|side|align|highlighted|disabled|selected|active|open|index|key|rendered|hydrat|n-|svelte|astro|aos|truth)/;

const MAX_DATA_ATTRIBUTES = 6;
const CHOICE_INPUT = /^(checkbox|radio)$/i;

/** Elements never anchored to: not rendered content. */
export const SKIPPED_TAGS = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "link",
  "meta",
  "base",
  "head",
  "title",
  "br",
  "wbr",
]);

/** Tags that stand in for each other between versions (a link became a button, an h2 an h3). */
export const FAMILIES: Record<string, string[]> = {
  action: ["a", "button", "summary"],
  field: ["input", "select", "textarea"],
  heading: ["h1", "h2", "h3", "h4", "h5", "h6"],
  media: ["img", "picture", "svg", "video", "canvas", "iframe", "object", "embed"],
  cell: ["td", "th"],
  item: ["li", "dt", "dd"],
  text: ["p", "blockquote", "figcaption", "pre"],
};
export const FAMILY_OF = new Map<string, string[]>();
for (const tags of Object.values(FAMILIES)) for (const tag of tags) FAMILY_OF.set(tag, tags);

/** The cheap part of a fingerprint, with derived values used in comparisons. */
export interface Basic {
  tag: string;
  id: string | null;
  stableId: string | null;
  name: string | null;
  role: string | null;
  ariaLabel: string | null;
  alt: string | null;
  href: string | null;
  src: string | null;
  classes: string[];
  stable: string[];
  attributes: Record<string, string>;
  testId: string | null;
  text: string;
  /** The SVG shapes a text-less element draws (see Fingerprint.icon), or null. */
  icon: string | null;
}

export interface Context {
  neighbourText: string;
  rect: Rect;
  ancestors: string[];
  index: number;
}

export const tagOf = (element: Element): string => element.localName.toLowerCase();

const attr = (element: Element, name: string): string | null => {
  const value = element.getAttribute(name);
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed ? trimmed : null;
};

/** A link target worth comparing (not "#", not javascript:). */
function usefulHref(element: Element): string | null {
  const href = attr(element, "href");
  if (!href || href === "#" || /^javascript:/i.test(href)) return null;
  return href;
}

function ownText(element: Element, tag: string): string {
  if (tag === "input") {
    const type = (element.getAttribute("type") ?? "text").toLowerCase();
    return type === "submit" || type === "button" || type === "reset"
      ? normaliseText(element.getAttribute("value"))
      : "";
  }
  if (tag === "textarea" || tag === "img") return "";
  return normaliseText(element.textContent);
}

export function testIdOf(attributes: Record<string, string>): string | null {
  for (const name of TEST_ID_ATTRIBUTES) {
    const value = attributes[name];
    if (value) return `${name}=${value}`;
  }
  return null;
}

function readAttributes(element: Element, tag: string): Record<string, string> {
  const kept: Record<string, string> = {};
  let dataCount = 0;
  for (const { name, value } of Array.from(element.attributes)) {
    const trimmed = value.trim();
    if (!trimmed || !isStableValue(trimmed)) continue;
    if (KEPT_ATTRIBUTES.has(name)) {
      if (name === "for" && isUnstableId(trimmed)) continue;
      kept[name] = trimmed;
    } else if (
      name === "value" &&
      (tag === "option" || CHOICE_INPUT.test(element.getAttribute("type") ?? ""))
    ) {
      // A checkbox's or radio's value names the choice; a text field's is user data.
      kept[name] = trimmed;
    } else if (name.startsWith("data-") && !NOISE_DATA.test(name) && dataCount < MAX_DATA_ATTRIBUTES) {
      if (trimmed.length > 60 || isUnstableId(trimmed.replace(/\s+/g, "-"))) continue;
      kept[name] = trimmed;
      dataCount++;
    }
  }
  return kept;
}

const ICON_LENGTH = 120;

/**
 * The shapes an icon draws, so a restyled or relabelled icon button is still recognised by its
 * picture (and twins with another picture are told apart). Only for elements without text.
 */
function iconOf(element: Element, tag: string, text: string): string | null {
  if (text) return null;
  const svg = tag === "svg" ? element : element.querySelector("svg");
  if (!svg) return null;
  const parts: string[] = [];
  for (const shape of Array.from(
    svg.querySelectorAll("path,circle,rect,line,polyline,polygon,ellipse,use"),
  )) {
    const shapeTag = tagOf(shape);
    const data =
      shape.getAttribute("d") ??
      shape.getAttribute("points") ??
      (shapeTag === "use"
        ? (shape.getAttribute("href") ?? shape.getAttribute("xlink:href"))
        : ["cx", "cy", "r", "x", "y", "width", "height", "x1", "y1", "x2", "y2", "rx", "ry"]
            .map((name) => shape.getAttribute(name) ?? "")
            .join(","));
    parts.push(`${shapeTag}:${(data ?? "").replace(/\s+/g, " ").trim()}`);
    if (parts.join(";").length >= ICON_LENGTH) break;
  }
  const icon = parts.join(";").slice(0, ICON_LENGTH);
  return icon || null;
}

export function readBasic(element: Element): Basic {
  const tag = tagOf(element);
  const id = attr(element, "id");
  const classes = Array.from(element.classList);
  const attributes = readAttributes(element, tag);
  const text = ownText(element, tag);
  return {
    tag,
    id,
    stableId: id && !isUnstableId(id) ? id : null,
    name: attr(element, "name"),
    role: attr(element, "role"),
    ariaLabel: attr(element, "aria-label"),
    alt: tag === "img" || tag === "area" || tag === "input" ? attr(element, "alt") : null,
    href: usefulHref(element),
    src: attr(element, "src"),
    classes,
    stable: stableClasses(classes),
    attributes,
    testId: testIdOf(attributes),
    text,
    icon: iconOf(element, tag, text),
  };
}

/** Basic values derived from a stored fingerprint (the same shape as a live element's). */
export function basicOfFingerprint(fingerprint: Fingerprint): Basic {
  return {
    tag: fingerprint.tag,
    id: fingerprint.id,
    stableId: fingerprint.id && !isUnstableId(fingerprint.id) ? fingerprint.id : null,
    name: fingerprint.name,
    role: fingerprint.role,
    ariaLabel: fingerprint.ariaLabel,
    alt: fingerprint.alt,
    href: fingerprint.href,
    src: fingerprint.src,
    classes: fingerprint.classes,
    stable: stableClasses(fingerprint.classes),
    attributes: fingerprint.attributes,
    testId: testIdOf(fingerprint.attributes),
    text: fingerprint.text,
    icon: fingerprint.icon ?? null,
  };
}

/** `tag#id.class.class`, stable parts only: what an ancestor contributes to the chain. */
export function ancestorLabel(element: Element): string {
  const tag = tagOf(element);
  const id = attr(element, "id");
  let label = tag;
  if (id && !isUnstableId(id)) label += `#${id}`;
  const classes = stableClasses(Array.from(element.classList)).filter((name) => !isUtilityClass(name));
  for (const name of classes.slice(0, 2)) label += `.${name}`;
  return label;
}

export const MAX_ANCESTORS = 6;
const NEIGHBOUR_SIDE = 60;
const SHOW_TEXT = 4; // NodeFilter.SHOW_TEXT, spelled out so this module loads outside a browser
const PRECEDING = 2; // Node.DOCUMENT_POSITION_PRECEDING
const SILENT_PARENTS = new Set(["script", "style", "noscript", "template"]);

function labelText(element: Element): string {
  const labels = (element as HTMLInputElement).labels;
  if (!labels || labels.length === 0) return "";
  return normaliseText(
    Array.from(labels)
      .map((label) => label.textContent ?? "")
      .join(" "),
  );
}

/** The closest text before and after the element, from the nearest ancestor that has any. */
function surroundingText(element: Element): string {
  const body = element.ownerDocument.body;
  let current: Element = element;
  for (let depth = 0; depth < 4; depth++) {
    const parent = current.parentElement;
    if (!parent || parent === body || parent === element.ownerDocument.documentElement) break;
    let before = "";
    let after = "";
    const walker = element.ownerDocument.createTreeWalker(parent, SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parentTag = node.parentElement ? tagOf(node.parentElement) : "";
      if (SILENT_PARENTS.has(parentTag) || element.contains(node)) continue;
      const data = node.nodeValue ?? "";
      if (!data.trim()) continue;
      if (element.compareDocumentPosition(node) & PRECEDING) before += ` ${data}`;
      else after += ` ${data}`;
    }
    const left = normaliseText(before, Number.MAX_SAFE_INTEGER);
    const right = normaliseText(after, NEIGHBOUR_SIDE);
    if (left.length + right.length >= 3) {
      return `${left.slice(-NEIGHBOUR_SIDE)} | ${right}`.trim();
    }
    current = parent;
  }
  return "";
}

export function readContext(element: Element): Context {
  const view = element.ownerDocument.defaultView;
  const box = rectOf(element);
  const rect: Rect = {
    x: Math.round(box.left + (view?.scrollX ?? 0)),
    y: Math.round(box.top + (view?.scrollY ?? 0)),
    width: Math.round(box.width),
    height: Math.round(box.height),
  };
  const ancestors: string[] = [];
  const body = element.ownerDocument.body;
  for (
    let parent = element.parentElement;
    parent && parent !== body && ancestors.length < MAX_ANCESTORS;
    parent = parent.parentElement
  ) {
    ancestors.push(ancestorLabel(parent));
  }
  let index = 0;
  const tag = tagOf(element);
  for (let sibling = element.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
    if (tagOf(sibling) === tag) index++;
  }
  return { neighbourText: labelText(element) || surroundingText(element), rect, ancestors, index };
}

/** What names a text-less element (label, alt, title, placeholder, link target, icon), or null. */
export function nameOf(basic: Basic): string | null {
  return (
    basic.ariaLabel ??
    basic.alt ??
    basic.attributes.title ??
    basic.attributes.placeholder ??
    basic.href ??
    basic.src ??
    basic.icon ??
    null
  );
}

/**
 * How many other elements of the page share the element's tag family and its text (or, without
 * text, its name): 0 for a one-off ("Related posts", the "Account menu" button), more for the
 * "Reply" of every comment, or a link with another link to the same place whose text contains its
 * own or is contained in it. Elements nested in it or around it (wrappers) do not count.
 */
export function countTwins(element: Element, basic: Basic): number {
  const name = basic.text ? null : nameOf(basic);
  if (!basic.text && name === null) return 0;
  let twins = 0;
  for (const tag of FAMILY_OF.get(basic.tag) ?? [basic.tag]) {
    for (const other of Array.from(element.ownerDocument.getElementsByTagName(tag))) {
      if (other === element || other.contains(element) || element.contains(other)) continue;
      if (basic.text) {
        // Another link to the same place with a text alike ("Upgrading from v2 →" in the pager).
        if (basic.href !== null && other.getAttribute("href")?.trim() === basic.href) {
          const text = normaliseText(other.textContent);
          if (text && (text.includes(basic.text) || basic.text.includes(text))) {
            twins++;
            continue;
          }
        }
        const raw = other.textContent ?? "";
        // A large container cannot have the same short text (and is not worth normalising).
        if (raw.length > 4096 && basic.text.length < MAX_TEXT) continue;
        if (normaliseText(raw) === basic.text) twins++;
      } else if (nameOf(readBasic(other)) === name) twins++;
    }
  }
  return twins;
}

export function readFingerprint(element: Element): Fingerprint {
  const basic = readBasic(element);
  const context = readContext(element);
  return {
    tag: basic.tag,
    id: basic.id,
    name: basic.name,
    role: basic.role,
    ariaLabel: basic.ariaLabel,
    alt: basic.alt,
    href: basic.href,
    src: basic.src,
    classes: basic.classes,
    attributes: basic.attributes,
    text: basic.text,
    ...(basic.icon ? { icon: basic.icon } : {}),
    twins: countTwins(element, basic),
    ...context,
  };
}
