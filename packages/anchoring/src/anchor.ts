/**
 * anchor(): find the element a stored Anchor meant in a (possibly changed) document.
 *
 * 1. The stored selectors are resolved; each that finds exactly one element is a vote for it.
 * 2. Candidates are prefiltered by tag family (a link may have become a button, an h2 an h3) plus
 *    anything carrying the stored test id, id or name, and scored on the cheap fingerprint parts.
 * 3. Every candidate that could still win once layout and neighbourhood are counted gets the full
 *    score (an exact bound, so the cut loses nothing).
 * 4. The best is accepted only above a threshold, with a margin over the runner-up, and when it
 *    passes an identity check (similar text, or an agreeing identifier for text-less elements);
 *    "exact" additionally needs a stored selector to agree. Anything less is "needs-review" with the
 *    candidates, or null: a wrong pin is worse than an orphaned one. Candidates whose surroundings
 *    name another record (another invoice number in the row) or that carry another accessible name
 *    with another symbol or icon are ruled out first, and so, for an element known by its record (a
 *    value, a text-less control, a label with twins), are candidates whose surroundings are the
 *    stored ones' template filled with another record's words (a sibling card or row); an element
 *    that had no twins when described (Fingerprint.twins; a link to the same place with a text alike
 *    counts as one) is followed from a lower bar when nothing else is near, and one that had twins is
 *    not identified by its link target or its text alone.
 *
 * Per-document work (element lists, attributes and text of each element) is cached and dropped as
 * soon as a MutationObserver reports any change, so anchoring many comments on one page is cheap.
 */
import {
  type Basic,
  basicOfFingerprint,
  type Context,
  FAMILIES,
  FAMILY_OF,
  readBasic,
  readContext,
  SKIPPED_TAGS,
  tagOf,
} from "./fingerprint.ts";
import {
  type BasicScore,
  hrefSimilarity,
  scoreBasic,
  scoreFull,
  type Target,
  trace,
  VALUE_WEIGHTS,
  type Votes,
  WEIGHTS,
} from "./score.ts";
import { cssString, resolveCss, resolveXpath } from "./selectors.ts";
import { isValueLike, otherRecord, recordKeys, siblingRecord, trigrams } from "./text.ts";
import type { Anchor, AnchorResult } from "./types.ts";

/** Below this nothing is offered at all (the comment is orphaned). */
export const FLOOR = 0.5;
/** At or above this, with the margin and the identity check, an element is accepted. */
export const ACCEPT = 0.7;
/** The bar for a candidate nothing else comes near (no rival reaches FLOOR) with the same text or name. */
export const LONE_ACCEPT = 0.55;
/** Required lead of the best over the runner-up: absolute, or relative to the runner-up's gap to 1. */
export const MARGIN = 0.08;
export const RELATIVE_MARGIN = 0.4;
const MIN_LEAD = 0.015;
/** "exact": a stored selector agrees and the fingerprint barely changed. */
export const EXACT = 0.9;
const REVIEW_CANDIDATES = 5;
const MAX_FULL = 80;

interface DocIndex {
  observer: MutationObserver | null;
  dirty: boolean;
  /** Layout-dependent values are valid for one viewport size. */
  viewport: string;
  byTag: Map<string, Element[]>;
  /** Every class name in the document. */
  classes: Set<string>;
  basics: Map<Element, Basic>;
  grams: Map<Element, Set<string>>;
  contexts: Map<Element, Context>;
  neighbourGrams: Map<Element, Set<string>>;
}

const indexes = new WeakMap<Document, DocIndex>();

const viewportOf = (root: Document) =>
  `${root.defaultView?.innerWidth ?? 0}x${root.defaultView?.innerHeight ?? 0}`;

function buildIndex(root: Document): DocIndex {
  const byTag = new Map<string, Element[]>();
  const classes = new Set<string>();
  const scope = root.body ?? root.documentElement;
  if (scope) {
    for (const element of Array.from(scope.getElementsByTagName("*"))) {
      for (const name of Array.from(element.classList)) classes.add(name);
      const tag = tagOf(element);
      if (SKIPPED_TAGS.has(tag)) continue;
      memo(byTag, tag, () => [] as Element[]).push(element);
    }
  }
  const index: DocIndex = {
    observer: null,
    dirty: false,
    viewport: viewportOf(root),
    byTag,
    classes,
    basics: new Map(),
    grams: new Map(),
    contexts: new Map(),
    neighbourGrams: new Map(),
  };
  const Observer = root.defaultView?.MutationObserver;
  if (Observer && root.documentElement) {
    index.observer = new Observer(() => {
      index.dirty = true;
    });
    index.observer.observe(root.documentElement, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  } else {
    index.dirty = true; // nothing tells us about changes: use once
  }
  return index;
}

function indexOf(root: Document): DocIndex {
  const cached = indexes.get(root);
  if (
    cached &&
    !cached.dirty &&
    (cached.observer?.takeRecords().length ?? 0) === 0 &&
    cached.viewport === viewportOf(root)
  ) {
    return cached;
  }
  cached?.observer?.disconnect();
  const fresh = buildIndex(root);
  indexes.set(root, fresh);
  return fresh;
}

function memo<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const made = make();
  map.set(key, made);
  return made;
}

function gatherCandidates(root: Document, index: DocIndex, basic: Basic): Set<Element> {
  const found = new Set<Element>();
  for (const tag of FAMILY_OF.get(basic.tag) ?? [basic.tag]) {
    for (const element of index.byTag.get(tag) ?? []) found.add(element);
  }
  const extra: Element[] = [];
  if (basic.testId) {
    const [name, ...rest] = basic.testId.split("=");
    extra.push(...resolveCss(root, `[${name}=${cssString(rest.join("="))}]`));
  }
  if (basic.stableId) {
    const byId = root.getElementById(basic.stableId);
    if (byId) extra.push(byId);
  }
  if (basic.name) extra.push(...Array.from(root.getElementsByName(basic.name)));
  for (const element of extra) if (!SKIPPED_TAGS.has(tagOf(element))) found.add(element);
  return found;
}

const isPositional = (selector: string) => /:nth-|\[\d+\]/.test(selector);

/** Stored selectors that find exactly one element, counted per element and kind. */
function selectorVotes(root: Document, stored: Anchor) {
  const votes = new Map<Element, Votes>();
  const selectors = new Set([stored.querySelector, stored.selectors.css, stored.selectors.idPath]);
  selectors.delete(null);
  selectors.delete("");
  let robust = 0;
  let positional = 0;
  const vote = (found: Element[], kind: keyof Votes) => {
    // A class or attribute selector that finds nothing (the page renamed what it names) is no
    // evidence against any candidate; one that finds something else is.
    if (found.length === 0 && kind === "robust") robust--;
    if (found.length !== 1) return;
    const entry = votes.get(found[0]!) ?? { robust: 0, positional: 0 };
    entry[kind]++;
    votes.set(found[0]!, entry);
  };
  for (const selector of selectors) {
    if (!selector) continue;
    const kind = isPositional(selector) ? "positional" : "robust";
    if (kind === "robust") robust++;
    else positional++;
    vote(resolveCss(root, selector), kind);
  }
  if (stored.selectors.xpath) {
    positional++;
    vote(resolveXpath(root, stored.selectors.xpath), "positional");
  }
  return { votes, robust, positional };
}

interface Scored {
  element: Element;
  basic: Basic;
  partial: BasicScore;
  score: number;
  neighbourSim: number;
  neighbourText: string;
}

const CONTEXT_WEIGHT =
  Math.max(WEIGHTS.neighbourText, VALUE_WEIGHTS.neighbourText) +
  WEIGHTS.ancestors +
  WEIGHTS.robustSelector +
  WEIGHTS.rect +
  WEIGHTS.index +
  WEIGHTS.positionalSelectors;

const isNested = (a: Element, b: Element) => a.contains(b) || b.contains(a);

const HEADINGS = new Set(FAMILIES.heading);
const isShortText = (text: string) => text.length <= 24 && text.split(" ").length <= 3;

/** Evidence that the candidate is the same thing, not just something alike. */
function identityHolds(
  target: Target,
  candidate: Scored,
  textIsShared: boolean,
  /** A stored class- or id-based selector still finds exactly this element. */
  hasRobustVote: boolean,
  /** No other candidate is even plausible (none reaches FLOOR). */
  isAlone: boolean,
  /** The stored element had no twin in its page. */
  oneOff: boolean,
): boolean {
  const stored = target.basic;
  const hadTwins = (target.twins ?? 0) > 0;
  const { partial, neighbourSim, basic } = candidate;
  if (partial.strongId) return true;
  // Conflicting identifiers: another form field, another test id, a link elsewhere.
  const conflict =
    (stored.testId !== null && basic.testId !== null && stored.testId !== basic.testId) ||
    (stored.name !== null && basic.name !== null && stored.name !== basic.name) ||
    (stored.href !== null && basic.href !== null && hrefSimilarity(stored.href, basic.href) < 0.8);
  if (conflict && (partial.textSim < 0.9 || neighbourSim < 0.8)) return false;
  // A label for another field with another text ("Workspace URL" for the deleted "Workspace name").
  // (A renamed field id alone is a rebuild: the same text still names the same label.)
  const forOther =
    stored.attributes.for !== undefined &&
    basic.attributes.for !== undefined &&
    stored.attributes.for !== basic.attributes.for;
  if (forOther && partial.textSim < 0.9) return false;
  if (!stored.text) {
    const named =
      stored.ariaLabel ||
      stored.alt ||
      stored.src ||
      stored.href ||
      stored.attributes.placeholder ||
      stored.attributes.title;
    // A name ("Resolve comment", an icon's label) may be shared by twins on other cards or rows:
    // it identifies the control only where its surroundings agree, or the page's own id or class
    // for it does. (A deleted control's twin elsewhere keeps the name, not the surroundings.)
    if (!named && !stored.icon) return neighbourSim >= 0.7;
    return (
      partial.namesIt &&
      (neighbourSim >= 0.5 || hasRobustVote || !target.context.neighbourText || (oneOff && isAlone))
    );
  }
  // A symbol's control (🛒 labelled "Cart") is named by its label: a one-off with nothing else near.
  if (partial.namesIt && oneOff && isAlone) return true;
  if (target.valueLike) return neighbourSim >= 0.7 || (partial.textSim >= 0.9 && neighbourSim >= 0.4);
  if (partial.textSim >= 0.8) {
    // Short labels ("Reply", "Overdue", "Add to cart") repeat: the surroundings, a link target or
    // a label must agree too. A longer text that no other element has is enough on its own.
    // A link target names it only if no look-alike shared it when described (the sidebar's
    // "Upgrading from v2" and the pager's "Upgrading from v2 →" go to one page).
    if (neighbourSim >= 0.6 || (partial.namesIt && (!hadTwins || neighbourSim >= 0.5))) return true;
    // The page kept its own name for the element (a class or id selector finds exactly it), or the
    // text is the page's only one of its kind and nothing else comes close: moved, not replaced.
    // (Not when it had twins when described: the one left may be a deleted twin's look-alike.)
    if (hasRobustVote || (isAlone && !textIsShared && !hadTwins)) return true;
    // Headings name their section, so a unique one may be short; elsewhere short text is a label.
    // A text that had a look-alike when described may be that look-alike left behind.
    return !textIsShared && !hadTwins && (!isShortText(stored.text) || HEADINGS.has(stored.tag));
  }
  return partial.textSim >= 0.6 && neighbourSim >= 0.5;
}

/** Clearly ahead: by an absolute margin, or by closing most of the runner-up's gap to a perfect match. */
function isClearLead(best: number, runnerUp: number): boolean {
  const lead = best - runnerUp;
  return lead >= MARGIN || (lead >= MIN_LEAD && lead / (1 - runnerUp) >= RELATIVE_MARGIN);
}

/** The part of the score an element earns by itself (attributes and own text). */
const ownScore = (entry: Scored) => (entry.partial.den > 0 ? entry.partial.num / entry.partial.den : 0);

/**
 * Twins (the same button or label on every row or card) score alike on everything an element says
 * about itself; only their surroundings tell them apart. When the two best are twins by that part of
 * the score, a clear difference in neighbourhood decides, however small it makes the total lead.
 */
function twinLead(best: Scored, rival: Scored): boolean {
  return (
    Math.abs(ownScore(best) - ownScore(rival)) < 0.02 &&
    best.neighbourSim >= 0.75 &&
    // …or, with its own surroundings untouched, a smaller one (the same words on the other side).
    (best.neighbourSim - rival.neighbourSim >= 0.25 ||
      (best.neighbourSim >= 0.95 && best.neighbourSim - rival.neighbourSim >= 0.1)) &&
    best.score > rival.score
  );
}

interface Ranking {
  target: Target;
  votes: Map<Element, Votes>;
  /** Full scores of the shortlist, best first. */
  scored: Scored[];
  /** Elements (wrappers counted once) whose text is close to the stored text. */
  similarTexts: number;
}

/** Candidates of one stored anchor, fully scored, best first. */
function rank(root: Document, stored: Anchor): Ranking | null {
  const fingerprint = stored.fingerprint;
  const index = indexOf(root);
  const storedBasic = basicOfFingerprint(fingerprint);
  const { votes, robust, positional } = selectorVotes(root, stored);
  const target: Target = {
    basic: storedBasic,
    grams: trigrams(storedBasic.text),
    context: {
      neighbourText: fingerprint.neighbourText,
      rect: fingerprint.rect,
      ancestors: fingerprint.ancestors,
      index: fingerprint.index,
    },
    neighbourGrams: trigrams(fingerprint.neighbourText),
    valueLike: isValueLike(storedBasic.text),
    classesGone:
      storedBasic.stable.length > 0 && storedBasic.stable.every((name) => !index.classes.has(name)),
    robustSelectors: robust,
    positionalSelectors: positional,
    twins: fingerprint.twins,
  };

  const candidates = gatherCandidates(root, index, storedBasic);
  for (const element of votes.keys()) candidates.add(element);

  const partials: Omit<Scored, "score" | "neighbourSim" | "neighbourText">[] = [];
  const similar: { element: Element; text: string }[] = [];
  for (const element of candidates) {
    const basic = memo(index.basics, element, () => readBasic(element));
    const partial = scoreBasic(target, basic, () => memo(index.grams, element, () => trigrams(basic.text)));
    if (storedBasic.text && partial.textSim >= 0.8) similar.push({ element, text: basic.text });
    partials.push({ element, basic, partial });
  }
  // A wrapper around an element repeats its text: the pair counts once.
  const similarTexts = similar.filter(
    (entry) =>
      similar.length > 40 ||
      !similar.some(
        (other) => other !== entry && other.text === entry.text && entry.element.contains(other.element),
      ),
  ).length;
  if (partials.length === 0) return null;

  // Exact pruning: a candidate whose best possible full score is below the leader's worst possible
  // full score (less the margin) can neither win nor be the runner-up that decides the margin.
  const lowest = (p: BasicScore) => p.num / (p.den + CONTEXT_WEIGHT);
  const highest = (p: BasicScore) => (p.num + CONTEXT_WEIGHT) / (p.den + CONTEXT_WEIGHT);
  let bar = 0;
  for (const entry of partials) bar = Math.max(bar, lowest(entry.partial));
  const shortlist = partials
    .filter((entry) => highest(entry.partial) >= bar - MARGIN || votes.has(entry.element))
    .sort((a, b) => highest(b.partial) - highest(a.partial))
    .slice(0, MAX_FULL);

  const noVotes: Votes = { robust: 0, positional: 0 };
  const scored: Scored[] = shortlist.map((entry) => {
    const context = memo(index.contexts, entry.element, () => readContext(entry.element));
    const grams = memo(index.neighbourGrams, entry.element, () => trigrams(context.neighbourText));
    const full = scoreFull(target, entry.partial, context, grams, votes.get(entry.element) ?? noVotes);
    return {
      ...entry,
      score: full.score,
      neighbourSim: full.neighbourSim,
      neighbourText: context.neighbourText,
    };
  });
  scored.sort((a, b) => b.score - a.score);
  return { target, votes, scored, similarTexts };
}

export function anchor(root: Document, stored: Anchor): AnchorResult | null {
  const ranking = rank(root, stored);
  if (!ranking) return null;
  const { target, votes, scored: all, similarTexts } = ranking;
  const storedBasic = target.basic;
  // Surroundings that name another record (another invoice number in the row) rule a candidate out:
  // it is the look-alike of a deleted or moved row, not the row.
  const keys = recordKeys(target.context.neighbourText);
  // So does another name: a control labelled otherwise that also shows another text or icon. And,
  // for an element known by its record (a value, a text-less control or picture, a label with twins)
  // that nothing names, surroundings that are the stored ones' template filled with another record's
  // words (the tee in white beside the deleted tee in black): a sibling card or row, not this one
  // edited. (Prose and one-off labels name themselves: a re-ordered menu or an edited sentence nearby
  // changes their surroundings the same way.)
  const recordBound = target.valueLike || !storedBasic.text || (target.twins ?? 0) > 0;
  const scored = all.filter(
    (entry) =>
      !entry.partial.otherName &&
      (keys.length === 0 || !otherRecord(keys, entry.neighbourText)) &&
      !(
        recordBound &&
        !entry.partial.namesIt &&
        siblingRecord(
          target.context.neighbourText,
          entry.neighbourText,
          entry.basic.text !== storedBasic.text,
        )
      ),
  );

  // A wrapper added around an element has the same tag and text and often the old position in the
  // tree: of two nested elements that match alike, the inner one is the element that was described.
  let best = scored[0];
  for (const other of scored.slice(1)) {
    if (!best || best.score - other.score > 0.05) break;
    if (
      other.basic.tag === best.basic.tag &&
      other.basic.text === best.basic.text &&
      best.element.contains(other.element) &&
      ownScore(other) >= ownScore(best) - 0.01
    )
      best = other;
  }
  if (!best || best.score < FLOOR) return reviewOrNull(all);
  const rival = scored.find(
    (other) =>
      other !== best && !(isNested(other.element, best.element) && other.basic.text === best.basic.text),
  );
  const isAlone = !rival || rival.score < FLOOR;
  // A page rebuilt around an element (every class regenerated, wrappers, a move to another container)
  // drags its score down though nothing else resembles it: alone, with the same text or name, it is
  // accepted from a lower bar.
  // A short label or a text-less control may be the twin of a deleted one ("Resolve" on another
  // card, a pager link repeating the sidebar's): its surroundings must still agree.
  // Unless it had no twin when it was described: then no deleted twin can have left it behind.
  const oneOff = stored.fingerprint.twins === 0;
  const sameText = storedBasic.text
    ? best.partial.textSim >= 0.9 && (!isShortText(storedBasic.text) || best.neighbourSim >= 0.5 || oneOff)
    : best.partial.namesIt && (best.neighbourSim >= 0.7 || oneOff);
  const acceptAt = isAlone && sameText ? LONE_ACCEPT : ACCEPT;
  if (
    best.score >= acceptAt &&
    (isClearLead(best.score, rival?.score ?? 0) || (rival !== undefined && twinLead(best, rival))) &&
    identityHolds(target, best, similarTexts > 1, (votes.get(best.element)?.robust ?? 0) > 0, isAlone, oneOff)
  ) {
    const exact = votes.has(best.element) && best.score >= EXACT;
    return { element: best.element, score: round(best.score), status: exact ? "exact" : "fuzzy" };
  }
  return reviewOrNull(all, best);
}

/** The plausible candidates for a reviewer, best first; null when none reaches FLOOR. */
function reviewOrNull(scored: Scored[], best?: Scored): AnchorResult | null {
  const plausible = scored.filter((entry) => entry.score >= FLOOR).slice(0, REVIEW_CANDIDATES);
  if (best && best.score >= FLOOR && !plausible.includes(best)) plausible.unshift(best);
  const first = best && best.score >= FLOOR ? best : plausible[0];
  if (!first) return null;
  return {
    element: first.element,
    score: round(first.score),
    status: "needs-review",
    candidates: plausible.map((entry) => entry.element),
  };
}

/**
 * Development aid (not exported from the package): the `count` best candidates with every weighted
 * comparison that made their score, for looking into a failure.
 */
export function explain(root: Document, stored: Anchor, count = 4) {
  const ranking = rank(root, stored);
  if (!ranking) return [];
  const index = indexOf(root);
  const { target, votes } = ranking;
  return ranking.scored.slice(0, count).map((entry) => {
    trace.parts = [];
    try {
      scoreBasic(target, entry.basic, () => trigrams(entry.basic.text));
      const context = memo(index.contexts, entry.element, () => readContext(entry.element));
      scoreFull(
        target,
        entry.partial,
        context,
        trigrams(context.neighbourText),
        votes.get(entry.element) ?? {
          robust: 0,
          positional: 0,
        },
      );
      return {
        element: entry.element,
        score: round(entry.score),
        neighbourSim: round(entry.neighbourSim),
        textSim: round(entry.partial.textSim),
        namesIt: entry.partial.namesIt,
        neighbourText: context.neighbourText,
        ancestors: context.ancestors,
        parts: trace.parts.map(([part, weight, sim]) => `${part}:${weight}×${round(sim)}`).join(" "),
      };
    } finally {
      trace.parts = null;
    }
  });
}

const round = (value: number) => Math.round(value * 1000) / 1000;
