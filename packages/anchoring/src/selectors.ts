/**
 * Selector generation: a short CSS selector unique in the document (built from stable ids and
 * attributes, never from generated class names or ids), an absolute XPath and an id-anchored child
 * path. Generation is a cheapest-first search over per-level options, each tested for uniqueness
 * with querySelectorAll, so the result is checked against the real document, not assumed.
 */
import { TEST_ID_ATTRIBUTES, tagOf } from "./fingerprint.ts";
import { isStableValue, isUnstableId, isUtilityClass, stableClasses } from "./stability.ts";

/** The document's root element, read from the prototype: a page element named "documentElement" cannot shadow it. */
const rootElement = (): Element | null =>
  (Object.getOwnPropertyDescriptor(Document.prototype, "documentElement")?.get?.call(
    document,
  ) as Element | null) ?? null;

/** CSS.escape, with the spec's algorithm as fallback for DOMs that lack it. */
export function cssEscape(value: string): string {
  const native = (globalThis as { CSS?: { escape?: (value: string) => string } }).CSS?.escape;
  if (native) return native(value);
  let result = "";
  for (let i = 0; i < value.length; i++) {
    const char = value.charAt(i);
    const code = value.charCodeAt(i);
    if (code === 0) result += "\uFFFD";
    else if (
      (code >= 1 && code <= 31) ||
      code === 127 ||
      (i === 0 && code >= 48 && code <= 57) ||
      (i === 1 && code >= 48 && code <= 57 && value.charCodeAt(0) === 45)
    ) {
      result += `\\${code.toString(16)} `;
    } else if (i === 0 && code === 45 && value.length === 1) result += `\\${char}`;
    else if (code >= 128 || code === 45 || code === 95 || /[0-9A-Za-z]/.test(char)) result += char;
    else result += `\\${char}`;
  }
  return result;
}

/** A quoted CSS attribute value. */
export function cssString(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\a ")}"`;
}

interface Option {
  selector: string;
  /** Lower is better: how stable and meaningful the option is. */
  penalty: number;
  positional: boolean;
}

const NAMED_TAGS = new Set(["input", "select", "textarea", "button", "form", "iframe", "fieldset", "output"]);

function nthOfType(element: Element): string {
  const tag = tagOf(element);
  let index = 1;
  for (let sibling = element.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
    if (tagOf(sibling) === tag) index++;
  }
  let count = index;
  for (let sibling = element.nextElementSibling; sibling; sibling = sibling.nextElementSibling) {
    if (tagOf(sibling) === tag) count++;
  }
  const name = cssEscape(tag);
  return count === 1 ? name : `${name}:nth-of-type(${index})`;
}

/** The ways to name one element on its own, best first. */
function localOptions(element: Element): Option[] {
  const tag = cssEscape(tagOf(element));
  const options: Option[] = [];
  const add = (selector: string, penalty: number, positional = false) =>
    options.push({ selector, penalty, positional });
  const value = (name: string) => {
    const raw = element.getAttribute(name)?.trim();
    return raw && isStableValue(raw) ? raw : null;
  };

  const id = element.getAttribute("id");
  if (id && !isUnstableId(id)) add(`#${cssEscape(id)}`, 0);
  for (const name of TEST_ID_ATTRIBUTES) {
    const testId = value(name);
    if (testId) add(`[${name}=${cssString(testId)}]`, 1);
  }
  const name = value("name");
  if (name && (NAMED_TAGS.has(tagOf(element)) || tagOf(element) === "a"))
    add(`${tag}[name=${cssString(name)}]`, 2);
  const label = value("aria-label");
  if (label) add(`${tag}[aria-label=${cssString(label)}]`, 3);
  const href = value("href");
  if (href && href !== "#" && href.length <= 100 && !/^javascript:/i.test(href))
    add(`${tag}[href=${cssString(href)}]`, 3);
  const alt = value("alt");
  if (alt) add(`${tag}[alt=${cssString(alt)}]`, 3);
  const labelFor = value("for");
  if (labelFor && !isUnstableId(labelFor)) add(`${tag}[for=${cssString(labelFor)}]`, 3);
  const classes = stableClasses(Array.from(element.classList));
  const semantic = classes.filter((name) => !isUtilityClass(name));
  for (const name of semantic.slice(0, 4)) add(`${tag}.${cssEscape(name)}`, 4);
  if (semantic.length >= 2) add(`${tag}.${cssEscape(semantic[0]!)}.${cssEscape(semantic[1]!)}`, 5);
  for (const attribute of ["placeholder", "title", "type", "role"]) {
    const found = value(attribute);
    if (found) add(`${tag}[${attribute}=${cssString(found)}]`, 5);
  }
  const utility = classes.filter((name) => isUtilityClass(name));
  if (utility.length > 0) add(`${tag}.${cssEscape(utility[0]!)}`, 7);
  add(tag, 6);
  options.sort((a, b) => a.penalty - b.penalty);
  return options;
}

function isUnique(root: ParentNode, selector: string): boolean {
  try {
    return root.querySelectorAll(selector).length === 1;
  } catch {
    return false;
  }
}

const MAX_LEVELS = 5;
const OPTIONS_PER_LEVEL = [5, 3, 3, 2, 2];
const MAX_TESTS = 300;

export interface CssSelectors {
  /** The cheapest unique selector (may use :nth-of-type). */
  shortest: string;
  /** The cheapest unique selector without positional parts; `shortest` when none was found. */
  robust: string;
}

/**
 * Cheapest-first search: paths of 1..5 levels joined by `>`, each level one of its best options or
 * its :nth-of-type, plus "stable-id ancestor, descendant" pairs. Falls back to the full positional
 * path from <body>, which is always unique.
 */
export function cssSelectors(element: Element): CssSelectors {
  const document = element.ownerDocument;
  const levels: Element[] = [];
  for (
    let node: Element | null = element;
    node && levels.length < MAX_LEVELS && node !== rootElement();
    node = node.parentElement
  ) {
    levels.push(node);
  }
  const optionsPerLevel = levels.map((node, depth) => {
    const options = localOptions(node).slice(0, OPTIONS_PER_LEVEL[depth]);
    const nth = nthOfType(node);
    if (!options.some((option) => option.selector === nth)) {
      options.push({ selector: nth, penalty: 8, positional: nth.includes(":nth-of-type") });
    }
    return options;
  });

  interface Path {
    selector: string;
    cost: number;
    positional: boolean;
  }
  const paths: Path[] = [];
  const extend = (depth: number, suffix: string, cost: number, positional: boolean) => {
    for (const option of optionsPerLevel[depth] ?? []) {
      const selector = suffix ? `${option.selector} > ${suffix}` : option.selector;
      const total = cost + option.penalty + (depth > 0 ? 2 : 0);
      const isPositional = positional || option.positional;
      paths.push({ selector, cost: total, positional: isPositional });
      if (depth + 1 < optionsPerLevel.length) extend(depth + 1, selector, total, isPositional);
    }
  };
  extend(0, "", 0, false);

  // A stable id anywhere above anchors a descendant selector.
  for (let node = element.parentElement; node && node !== rootElement(); node = node.parentElement) {
    const id = node.getAttribute("id");
    if (id && !isUnstableId(id)) {
      for (const option of optionsPerLevel[0] ?? []) {
        paths.push({
          selector: `#${cssEscape(id)} ${option.selector}`,
          cost: option.penalty + 2,
          positional: option.positional,
        });
      }
      break;
    }
  }

  paths.sort((a, b) => a.cost - b.cost || a.selector.length - b.selector.length);
  let shortest: string | null = null;
  let robust: string | null = null;
  let tests = 0;
  for (const path of paths) {
    if (shortest && path.positional) continue;
    if (tests++ >= MAX_TESTS) break;
    if (!isUnique(document, path.selector)) continue;
    if (!shortest) shortest = path.selector;
    if (!path.positional) {
      robust = path.selector;
      break;
    }
  }
  shortest ??= bodyPath(element);
  return { shortest, robust: robust ?? shortest };
}

/** `body > div:nth-of-type(2) > a` — unique by construction. */
function bodyPath(element: Element): string {
  const parts: string[] = [];
  const root = element.ownerDocument.documentElement;
  for (let node: Element | null = element; node && node !== root; node = node.parentElement) {
    parts.unshift(tagOf(node) === "body" ? "body" : nthOfType(node));
  }
  return parts.join(" > ") || ":root";
}

/** Nearest ancestor-or-self with a stable id, then the child path down to the element. */
export function idPath(element: Element): string | null {
  const parts: string[] = [];
  const root = element.ownerDocument.documentElement;
  for (let node: Element | null = element; node && node !== root; node = node.parentElement) {
    const id = node.getAttribute("id");
    if (id && !isUnstableId(id) && isUnique(element.ownerDocument, `#${cssEscape(id)}`)) {
      return [`#${cssEscape(id)}`, ...parts].join(" > ");
    }
    parts.unshift(nthOfType(node));
  }
  return null;
}

const HTML_NS = "http://www.w3.org/1999/xhtml";

/** `/html/body/div[2]/a`; foreign elements (SVG, MathML) by local-name(). */
export function xpath(element: Element): string {
  const parts: string[] = [];
  for (let node: Element | null = element; node; node = node.parentElement) {
    const tag = tagOf(node);
    const html = node.namespaceURI === HTML_NS;
    const sameName = (other: Element) => tagOf(other) === tag && (other.namespaceURI === HTML_NS) === html;
    let index = 1;
    for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
      if (sameName(sibling)) index++;
    }
    let count = index;
    for (let sibling = node.nextElementSibling; sibling; sibling = sibling.nextElementSibling) {
      if (sameName(sibling)) count++;
    }
    const step = html ? tag : `*[local-name()='${tag.replace(/'/g, "")}']`;
    parts.unshift(count > 1 ? `${step}[${index}]` : step);
  }
  return `/${parts.join("/")}`;
}

/** The elements a stored CSS selector finds now ([] on a syntax error). */
export function resolveCss(root: Document, selector: string | null | undefined): Element[] {
  if (!selector) return [];
  try {
    return Array.from(root.querySelectorAll(selector));
  } catch {
    return [];
  }
}

const ORDERED_NODE_SNAPSHOT_TYPE = 7;

export function resolveXpath(root: Document, expression: string | null | undefined): Element[] {
  if (!expression) return [];
  try {
    const result = root.evaluate(expression, root, null, ORDERED_NODE_SNAPSHOT_TYPE, null);
    const found: Element[] = [];
    for (let i = 0; i < result.snapshotLength; i++) {
      const node = result.snapshotItem(i);
      if (node && node.nodeType === 1) found.push(node as Element);
    }
    return found;
  } catch {
    return [];
  }
}
