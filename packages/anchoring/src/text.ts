/**
 * Text normalisation and similarity. Visible text is the strongest evidence that two elements are
 * "the same thing" across versions, so it gets a forgiving similarity: exact after normalisation,
 * otherwise the better of an edit-distance ratio (good for short labels and changed numbers) and a
 * trigram Dice coefficient (good for longer, partly rewritten text).
 */

/** Longest text kept in a fingerprint; enough to tell paragraphs apart, small enough to store. */
export const MAX_TEXT = 160;

const WHITESPACE = /\s+/g;

/** NFKC, lower case, whitespace collapsed, trimmed, cut to `max` characters. */
export function normaliseText(value: string | null | undefined, max = MAX_TEXT): string {
  if (!value) return "";
  const text = value.normalize("NFKC").replace(WHITESPACE, " ").trim().toLowerCase();
  return text.length > max ? text.slice(0, max) : text;
}

/** Levenshtein distance with an early exit once it exceeds `limit`. */
export function levenshtein(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  if (a.length > b.length) [a, b] = [b, a];
  if (b.length - a.length > limit) return limit + 1;
  let previous = new Array<number>(a.length + 1);
  let current = new Array<number>(a.length + 1);
  for (let i = 0; i <= a.length; i++) previous[i] = i;
  for (let j = 1; j <= b.length; j++) {
    current[0] = j;
    let rowMin = j;
    const bj = b.charCodeAt(j - 1);
    for (let i = 1; i <= a.length; i++) {
      const cost = a.charCodeAt(i - 1) === bj ? 0 : 1;
      const value = Math.min(previous[i]! + 1, current[i - 1]! + 1, previous[i - 1]! + cost);
      current[i] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    [previous, current] = [current, previous];
  }
  return previous[a.length]!;
}

/** The set of character trigrams of " text " (padded, so one- and two-letter words count). */
export function trigrams(text: string): Set<string> {
  const padded = ` ${text} `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}

const gramCache = new Map<string, Set<string>>();

/** trigrams(), memoised: the same labels, alts and paths are compared against many stored anchors. */
export function cachedTrigrams(text: string): Set<string> {
  const cached = gramCache.get(text);
  if (cached) return cached;
  if (gramCache.size > 20_000) gramCache.clear();
  const grams = trigrams(text);
  gramCache.set(text, grams);
  return grams;
}

export function diceOfSets(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const gram of small) if (large.has(gram)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/**
 * Similarity of two normalised texts in [0, 1]. Both empty → 1; one empty → 0. Pass cached trigram
 * sets when comparing one text against many.
 */
export function textSimilarity(
  a: string,
  b: string,
  gramsA?: ReadonlySet<string>,
  gramsB?: ReadonlySet<string>,
): number {
  if (a === b) return 1;
  if (!a || !b) return 0;
  const longest = Math.max(a.length, b.length);
  const dice = diceOfSets(gramsA ?? cachedTrigrams(a), gramsB ?? cachedTrigrams(b));
  // A label that gained or lost words ("Sign up" → "Sign up free") is still the same label.
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const contained =
    short.length >= 3 && ` ${long} `.includes(` ${short} `) ? 0.6 + (0.4 * short.length) / long.length : 0;
  const floor = Math.max(dice, contained);
  // Beyond a dozen characters, texts with few shared trigrams are not one edit apart.
  if (longest > 64 || (longest > 12 && floor < 0.3)) return floor;
  // Edit distance only where it is cheap and meaningful (labels, prices, headings), and only as far
  // as it could still beat the trigram score: most candidates exit after a few rows.
  const limit = Math.floor(longest * (1 - floor));
  const distance = levenshtein(a, b, limit);
  return distance > limit ? floor : Math.max(floor, 1 - distance / longest);
}

/** Dice coefficient of the word sets: stricter than trigrams about which words changed. */
export function wordSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (!a || !b) return 0;
  return diceOfSets(new Set(a.split(" ")), new Set(b.split(" ")));
}

/**
 * Dice coefficient of the words before and after the element (neighbour text is `before | after`):
 * a word counts as shared only on the same side, so of two cells with the same text side by side
 * ("3 | Unlimited | Unlimited") each keeps its own place in the row.
 */
export function sidedWordSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (!a || !b) return 0;
  return diceOfSets(sidedWords(a), sidedWords(b));
}

function sidedWords(text: string): Set<string> {
  const words = new Set<string>();
  let side = text.includes("|") ? "<" : "=";
  for (const word of text.split(" ")) {
    if (word === "|") side = ">";
    else if (word) words.add(side + word);
  }
  return words;
}

/**
 * Record keys in a text: tokens mixing at least two letters and two digits ("inv-2041", "sku_1180",
 * "ord12345"), the numbers a row or card is known by. Versions, times, prices and dates are not keys.
 */
export function recordKeys(text: string): string[] {
  const keys: string[] = [];
  for (const token of text.split(" ")) {
    if (token.length < 5 || token.length > 24) continue;
    const letters = token.replace(/[^\p{L}]/gu, "").length;
    const digits = token.replace(/\D/g, "").length;
    if (letters >= 2 && digits >= 2) keys.push(token);
  }
  return keys;
}

/** A key's shape: its digits replaced by `#` ("inv-2041" → "inv-####"). */
export const keyShape = (key: string) => key.replace(/\d/g, "#");

/**
 * The candidate's surroundings name another record: a key of the stored surroundings is missing and
 * one of the same shape stands in its place (the row of INV-2037 was deleted; INV-2041's row is its
 * look-alike, not it).
 */
export function otherRecord(storedKeys: readonly string[], candidateText: string): boolean {
  if (storedKeys.length === 0) return false;
  const found = recordKeys(candidateText);
  if (found.length === 0) return false;
  for (const key of storedKeys) {
    if (found.includes(key)) continue;
    const shape = keyShape(key);
    if (found.some((other) => keyShape(other) === shape)) return true;
  }
  return false;
}

/**
 * Text that is a value rather than a name: numbers, prices, dates, times, dashes ("$29",
 * "4.6 ★ (212)", "07:30", "oct 10, 2026", "—"). Values change between versions while the element
 * stays the same, and the same value repeats across unrelated elements, so for these the
 * surroundings say more than the text.
 */
export function isValueLike(text: string): boolean {
  if (!text || text.length > 40) return false;
  if (!/[\d\p{Pd}]/u.test(text) && !/^\p{S}+$/u.test(text)) return false;
  const letters = text.replace(/[^\p{L}]/gu, "");
  return letters.length <= 3 || (/\d/.test(text) && letters.length <= 6 && text.split(" ").length <= 4);
}

/** A word that names something ("black", "olive"), not a value (a price, a count, a rating). */
const isNameWord = (word: string) => word.length >= 3 && !/\d/.test(word) && /^\p{L}+$/u.test(word);

/**
 * The candidate stands in a look-alike of the stored surroundings filled with another record's
 * content: the same words in the same places (the same card or row template), except for two or
 * more of them, one a name ("organic cotton tee black $29 | 4.5 ★ (488)" against "… white $29 |
 * 4.4 ★ (530)"). An edit changes one field of a record; a sibling differs in several — the
 * element's own text counts as one (`ownTextDiffers`: the rating "4.5 ★ (488)" beside "… black $29 |"
 * against "4.4 ★ (530)" beside "… white $29 |").
 */
export function siblingRecord(stored: string, candidate: string, ownTextDiffers = false): boolean {
  if (!stored || stored === candidate) return false;
  const left = stored.split(" ");
  const right = candidate.split(" ");
  if (left.length !== right.length || left.length < 4) return false;
  let differing = ownTextDiffers ? 1 : 0;
  let names = 0;
  for (let i = 0; i < left.length; i++) {
    if (left[i] === right[i]) continue;
    if (left[i] === "|" || right[i] === "|") return false;
    differing++;
    if (isNameWord(left[i]!) && isNameWord(right[i]!)) names++;
  }
  return differing >= 2 && names >= 1 && differing <= left.length / 2;
}
