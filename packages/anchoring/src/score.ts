/**
 * Weighted fingerprint similarity, after Similo (Nass et al., "Similarity-based web element
 * localization for robust test automation", 2023) and VON Similo: each attribute compares to [0, 1]
 * and carries a weight; attributes absent on both sides are no evidence and are left out, so the
 * score is a weighted mean in [0, 1]. Text carries the most weight because it is what the reviewer
 * saw; positional evidence (box, sibling index, stored selectors) the least, because it is what a
 * page change moves first.
 */
import { type Basic, type Context, MAX_ANCESTORS } from "./fingerprint.ts";
import { diceOfSets, sidedWordSimilarity, textSimilarity, wordSimilarity } from "./text.ts";
import type { Rect } from "./types.ts";

export const WEIGHTS = {
  tag: 1,
  testId: 3,
  id: 2,
  name: 1.5,
  role: 0.5,
  ariaLabel: 1.5,
  alt: 1,
  href: 1.5,
  src: 1,
  classes: 1,
  attributes: 1,
  text: 3,
  /** The SVG an icon draws (text-less elements). */
  icon: 1.5,
  neighbourText: 2,
  ancestors: 1,
  /** A stored selector free of positions (`a[href="/pricing"]`) that still finds this element. */
  robustSelector: 1,
  // Position is a tie-breaker only: lists get re-sorted, banners push everything down, and the
  // element now standing where the old one stood is the classic wrong pin.
  rect: 0.2,
  index: 0.1,
  positionalSelectors: 0.2,
} as const;

/** For value-like text (prices, dates, counts) the surroundings carry the identity. */
export const VALUE_WEIGHTS = { text: 1, neighbourText: 3 } as const;

/** Development aid (explain() in anchor.ts): when set, every weighted comparison is recorded here. */
export const trace: { parts: [string, number, number][] | null } = { parts: null };

/** Shared by all candidates of one anchor() call: the stored side, pre-digested. */
export interface Target {
  basic: Basic;
  grams: Set<string>;
  context: Context;
  neighbourGrams: Set<string>;
  /** Whether the stored text is a value (price, date, count) rather than a name. */
  valueLike: boolean;
  /**
   * None of the stored element's own classes occurs anywhere in the document any more: the page's
   * classes were rebuilt, so classes (and the classes in ancestor labels) are no evidence either way.
   */
  classesGone: boolean;
  /** Stored selectors: how many free of positions still find something, how many positional. */
  robustSelectors: number;
  positionalSelectors: number;
  /** Fingerprint.twins: look-alikes of the stored element in its page (unknown in older anchors). */
  twins?: number;
}

/** How many stored selectors find exactly this element, by kind. */
export interface Votes {
  robust: number;
  positional: number;
}

export interface BasicScore {
  num: number;
  den: number;
  textSim: number;
  /** Agreement on an identifier that is unique by intent: test id, stable id, form name. */
  strongId: boolean;
  /** Agreement on something that names a text-less element: label, alt, image, link target. */
  namesIt: boolean;
  /**
   * Both carry an accessible name (aria-label) and the names differ, and neither the text nor the
   * icon agrees: another control ("Account" 👤 is not "Cart" 🛒), whatever its surroundings say.
   */
  otherName: boolean;
}

export function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const setB = new Set(b);
  let shared = 0;
  for (const value of new Set(a)) if (setB.has(value)) shared++;
  return shared / (new Set([...a, ...b]).size || 1);
}

interface ParsedHref {
  host: string;
  path: string;
  rest: string;
  words: Set<string>;
}

const parsedHrefs = new Map<string, ParsedHref>();

/** host, path (no trailing slash) and query+hash of a link, without URL parsing (hot path). */
function parseHref(href: string): ParsedHref {
  let parsed = parsedHrefs.get(href);
  if (parsed) return parsed;
  const match = /^(?:[a-z][a-z0-9+.-]*:)?(?:\/\/([^/?#]*))?([^?#]*)(.*)$/i.exec(href);
  const path = (match?.[2] ?? href).replace(/\/+$/, "") || "/";
  parsed = {
    host: (match?.[1] ?? "").toLowerCase(),
    path,
    rest: match?.[3] ?? "",
    words: new Set(
      path
        .toLowerCase()
        .split(/[/._-]+/)
        .filter(Boolean),
    ),
  };
  if (parsedHrefs.size > 20_000) parsedHrefs.clear();
  parsedHrefs.set(href, parsed);
  return parsed;
}

export function hrefSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const left = parseHref(a);
  const right = parseHref(b);
  if (left.host !== right.host && left.host && right.host) return 0;
  if (left.path === right.path) return left.rest === right.rest ? 0.9 : 0.8;
  return 0.6 * diceOfSets(left.words, right.words);
}

const basename = (src: string) => src.split(/[?#]/)[0]!.split("/").pop() ?? src;

export function srcSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const left = basename(a);
  const right = basename(b);
  if (left && left === right) return 0.8;
  return 0.5 * textSimilarity(left, right);
}

const eq = (a: string | null, b: string | null) => a !== null && a === b;
const lower = (value: string | null) => (value ? value.toLowerCase() : "");

/** Everything that needs no layout: attributes and own text. */
export function scoreBasic(target: Target, candidate: Basic, candidateGrams: () => Set<string>): BasicScore {
  const a = target.basic;
  const b = candidate;
  let num = 0;
  let den = 0;
  const add = (weight: number, similarity: number, part = "") => {
    num += weight * similarity;
    den += weight;
    trace.parts?.push([part, weight, similarity]);
  };

  add(WEIGHTS.tag, a.tag === b.tag ? 1 : 0.5, "tag");
  if (a.testId) add(WEIGHTS.testId, a.testId === b.testId ? 1 : 0, "testId");
  // Stable ids are often slugs of the text, and get renamed with it (#config-file → #the-config-file).
  if (a.stableId)
    add(
      b.stableId ? WEIGHTS.id : WEIGHTS.id / 2,
      b.stableId ? textSimilarity(a.stableId, b.stableId) : 0,
      "id",
    );
  if (a.name || b.name) add(WEIGHTS.name, a.name === b.name ? 1 : 0, "name");
  if (a.role || b.role) add(WEIGHTS.role, a.role === b.role ? 1 : 0, "role");
  let labelSim = 0;
  if (a.ariaLabel || b.ariaLabel) {
    labelSim = textSimilarity(lower(a.ariaLabel), lower(b.ariaLabel));
    add(WEIGHTS.ariaLabel, labelSim, "aria");
  }
  let altSim = 0;
  if (a.alt || b.alt) {
    altSim = textSimilarity(lower(a.alt), lower(b.alt));
    add(WEIGHTS.alt, altSim, "alt");
  }
  if (a.href || b.href) add(WEIGHTS.href, a.href && b.href ? hrefSimilarity(a.href, b.href) : 0, "href");
  let srcSim = 0;
  if (a.src || b.src) {
    srcSim = a.src && b.src ? srcSimilarity(a.src, b.src) : 0;
    add(WEIGHTS.src, srcSim, "src");
  }
  if (!target.classesGone && (a.stable.length > 0 || b.stable.length > 0))
    add(WEIGHTS.classes, jaccard(a.stable, b.stable), "classes");
  let iconSim = 0;
  if (a.icon || b.icon) {
    iconSim = a.icon && b.icon ? (a.icon === b.icon ? 1 : 0.5 * textSimilarity(a.icon, b.icon)) : 0;
    add(WEIGHTS.icon, iconSim, "icon");
  }

  const keys = new Set<string>();
  for (const key of Object.keys(a.attributes)) if (!key.startsWith("data-test")) keys.add(key);
  for (const key of Object.keys(b.attributes)) if (!key.startsWith("data-test")) keys.add(key);
  if (keys.size > 0) {
    let agree = 0;
    for (const key of keys) {
      const left = a.attributes[key];
      const right = b.attributes[key];
      if (left !== undefined && left === right) agree += 1;
      else if (left !== undefined && right !== undefined) agree += 0.3;
      // An attribute the new version added everywhere (tracking, state) says little either way.
      else if (left === undefined) agree += 0.5;
    }
    add(WEIGHTS.attributes, agree / keys.size, "attrs");
  }

  let textSim = 1;
  if (a.text || b.text) {
    textSim = a.text === b.text ? 1 : textSimilarity(a.text, b.text, target.grams, candidateGrams());
    add(target.valueLike ? VALUE_WEIGHTS.text : WEIGHTS.text, textSim, "text");
  }

  const strongId =
    (a.testId !== null && a.testId === b.testId) ||
    eq(a.stableId, b.stableId) ||
    (a.attributes.for !== undefined && a.attributes.for === b.attributes.for) ||
    (a.name !== null &&
      a.name === b.name &&
      a.tag === b.tag &&
      a.tag !== "a" &&
      a.attributes.value === b.attributes.value);
  const namesIt =
    strongId ||
    labelSim >= 0.8 ||
    altSim >= 0.8 ||
    srcSim >= 0.8 ||
    iconSim === 1 ||
    (a.href !== null && a.href === b.href) ||
    (a.attributes.placeholder !== undefined && a.attributes.placeholder === b.attributes.placeholder) ||
    (a.attributes.title !== undefined && a.attributes.title === b.attributes.title);
  const otherName =
    a.ariaLabel !== null &&
    b.ariaLabel !== null &&
    labelSim < 0.5 &&
    iconSim < 1 &&
    (a.text || b.text ? textSim < 0.9 : a.icon !== null || b.icon !== null);
  return { num, den, textSim, strongId, namesIt, otherName };
}

export function rectSimilarity(a: Rect, b: Rect): number {
  const dx = Math.abs(a.x + a.width / 2 - (b.x + b.width / 2));
  const dy = Math.abs(a.y + a.height / 2 - (b.y + b.height / 2));
  const position = 1 / (1 + (dx + dy) / 200);
  const ratio = (p: number, q: number) => (p === q ? 1 : Math.min(p, q) / Math.max(p, q));
  const size = (ratio(a.width, b.width) + ratio(a.height, b.height)) / 2;
  return (position + size) / 2;
}

/** 2·LCS / (|a| + |b|): tolerant of an inserted or removed wrapper level. */
export function chainSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  let previous = new Array<number>(b.length + 1).fill(0);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      current[j] = a[i - 1] === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return (2 * previous[b.length]!) / (a.length + b.length);
}

/** `tag#id.class` → `tag#id`. */
const withoutClasses = (label: string) => label.replace(/\..*$/, "");

export interface FullScore {
  score: number;
  neighbourSim: number;
}

/**
 * Neighbour text: trigrams forgive small edits, words notice which ones changed (INV-2039 vs INV-2032)
 * and, half of their part, on which side of the element they stand (a re-ordered menu moves a few
 * words across; a twin cell beside the element has them all on the other side).
 */
function neighbourSimilarity(target: Target, text: string, grams: Set<string>): number {
  const stored = target.context.neighbourText;
  if (stored === text) return 1;
  const words = (sidedWordSimilarity(stored, text) + wordSimilarity(stored, text)) / 2;
  return (textSimilarity(stored, text, target.neighbourGrams, grams) + words) / 2;
}

/** The basic score completed with layout, neighbourhood, ancestry and stored-selector agreement. */
export function scoreFull(
  target: Target,
  basic: BasicScore,
  context: Context,
  neighbourGrams: Set<string>,
  votes: Votes,
): FullScore {
  let { num, den } = basic;
  const add = (weight: number, similarity: number, part = "") => {
    num += weight * similarity;
    den += weight;
    trace.parts?.push([part, weight, similarity]);
  };
  const a = target.context;
  let neighbourSim = 1;
  if (!a.neighbourText && context.neighbourText) {
    // Nothing was read around an element that sat right under <body>: no evidence either way.
    neighbourSim = 0.5;
  } else if (a.neighbourText || context.neighbourText) {
    neighbourSim = neighbourSimilarity(target, context.neighbourText, neighbourGrams);
    add(target.valueLike ? VALUE_WEIGHTS.neighbourText : WEIGHTS.neighbourText, neighbourSim, "neighbours");
  }
  // A chain shorter than the cap ends at <body>: counting that common root, a wrapper added at the
  // top of the page costs a part of the match, not all of it.
  const rooted = (chain: string[]) => (chain.length < MAX_ANCESTORS ? [...chain, "body"] : chain);
  add(
    WEIGHTS.ancestors,
    target.classesGone
      ? chainSimilarity(
          rooted(a.ancestors.map(withoutClasses)),
          rooted(context.ancestors.map(withoutClasses)),
        )
      : chainSimilarity(rooted(a.ancestors), rooted(context.ancestors)),
    "ancestors",
  );
  if (target.robustSelectors > 0)
    add(WEIGHTS.robustSelector, votes.robust / target.robustSelectors, "robustSel");
  add(WEIGHTS.rect, rectSimilarity(a.rect, context.rect), "rect");
  const distance = Math.abs(a.index - context.index);
  add(WEIGHTS.index, distance === 0 ? 1 : distance === 1 ? 0.5 : 0, "index");
  if (target.positionalSelectors > 0) {
    add(WEIGHTS.positionalSelectors, votes.positional / target.positionalSelectors, "positional");
  }
  return { score: den > 0 ? num / den : 0, neighbourSim };
}
