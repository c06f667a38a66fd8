/**
 * Which class names and ids survive a rebuild of the page. CSS-in-JS libraries, CSS Modules and
 * framework id generators emit names that change whenever the styles or the render order change, so
 * selectors built on them break on the next captured version. These are heuristics: a false
 * "unstable" only costs a slightly longer selector, a false "stable" costs a broken one.
 */

/** Whole-name patterns of generated class names. */
const HASHED_CLASS_PATTERNS: readonly RegExp[] = [
  /^css-[0-9a-z]{4,}(-.*)?$/i, // emotion: css-1x2y3z, css-1x2y3z-Button
  /^sc-[a-z0-9]+$/i, // styled-components component id: sc-bdVaJa
  /^jsx-\d+$/, // styled-jsx
  /^svelte-[0-9a-z]{4,}$/i, // svelte scoped styles
  /^_[a-z0-9_-]{4,}$/i, // CSS Modules short hashes: _3xYz9
  /^[a-z][a-z0-9-]*_[a-z0-9-]+__[\w-]{5,}$/i, // CSS Modules: Button_primary__3xYz9 (not BEM card__title)
  /^[a-z][\w-]*-module__[\w-]+$/i, // CSS Modules (webpack): Button-module__primary___a1b2c
  /^(makeStyles|jss|withStyles)[\w-]*-\d+$/i, // JSS / MUI v4: makeStyles-root-12
  /^(emotion|tss)-\d+$/i,
  /^ng-(tns|star)-/, // Angular animation bookkeeping
  /^astro-[0-9a-z]{6,}$/i,
  /^[a-z]+\d{3,}$/i, // counters glued to a word: ember123
  /^v-[0-9a-f]{6,}$/i, // vue scoped
  /^data-v-[0-9a-f]{6,}$/i,
];

/** Classes that describe a transient state rather than the element. */
const STATE_CLASS =
  /^(is-|has-)|^(active|current|selected|open|opened|show|shown|hidden|visible|focus|focused|hover|hovered|disabled|checked|expanded|collapsed|loading|loaded|in|fade|animate|animated|ng-[a-z-]+)$/i;

/** Tailwind-style utilities: stable across builds, but presentational (the first thing a redesign changes). */
const UTILITY_CLASS =
  /[:[\]/]|^-?(p|px|py|pt|pb|pl|pr|m|mx|my|mt|mb|ml|mr|w|h|min-w|max-w|min-h|max-h|gap|space-[xy]|text|font|leading|tracking|bg|border|rounded|shadow|flex|grid|col|row|items|justify|self|place|order|z|top|left|right|bottom|inset|opacity|overflow|d|display|float|align|fs|fw|lh|col-(xs|sm|md|lg|xl)|g|gx|gy)(-|$)|^(flex|grid|block|inline|inline-block|hidden|relative|absolute|fixed|sticky|container|clearfix|row|col|truncate|uppercase|lowercase|capitalize|italic|underline|sr-only)$/i;

/**
 * True for a segment that looks machine-made: mixed letters and digits flipping back and forth
 * (`1x2y3z`), hex or base36 runs with digits (`a1b2c3d4`), or random-case letter soup (`bHwkBz`).
 */
export function isRandomLooking(segment: string): boolean {
  if (segment.length < 4) return false;
  let transitions = 0;
  let digits = 0;
  let letters = 0;
  let previous = "";
  for (const char of segment) {
    const kind = char >= "0" && char <= "9" ? "d" : /[a-z]/i.test(char) ? "l" : "o";
    if (kind === "d") digits++;
    if (kind === "l") letters++;
    if (previous && kind !== previous && kind !== "o" && previous !== "o") transitions++;
    previous = kind;
  }
  if (digits > 0 && letters > 0) {
    if (transitions >= 3) return true;
    if (/[A-Z]/.test(segment) && /[a-z]/.test(segment)) return true; // 3xYz9
    if (segment.length >= 6 && digits >= 2 && /^[0-9a-z]+$/i.test(segment) && transitions >= 2) return true;
    if (segment.length >= 8 && /^[0-9a-f]+$/i.test(segment)) return true;
  }
  if (digits === 0 && letters === segment.length && segment.length >= 5 && segment.length <= 10) {
    const hasUpper = /[A-Z]/.test(segment);
    const hasLower = /[a-z]/.test(segment);
    // Proper camelCase / PascalCase: every capital is followed by at least two lower-case letters.
    const camel = /^[a-z]*([A-Z][a-z]{2,})*$/.test(segment) || /^[A-Z]{2,5}$/.test(segment);
    if (hasUpper && hasLower && !camel) return true;
  }
  return false;
}

/** True for generated class names (CSS-in-JS, CSS Modules, scoped styles). */
export function isHashedClass(name: string): boolean {
  if (!name) return true;
  if (HASHED_CLASS_PATTERNS.some((pattern) => pattern.test(name))) return true;
  // Tailwind arbitrary values (`w-[327px]`, `bg-[#1da1f2]`): judge only the part outside brackets.
  const outside = name.replace(/\[[^\]]*\]/g, "");
  return outside.split(/[-_:]+/).some(isRandomLooking);
}

export function isStateClass(name: string): boolean {
  return STATE_CLASS.test(name);
}

export function isUtilityClass(name: string): boolean {
  return UTILITY_CLASS.test(name);
}

const verdicts = new Map<string, boolean>();

/** Classes worth comparing and selecting on: not generated, not transient. Memoised per name. */
export function stableClasses(classes: readonly string[]): string[] {
  return classes.filter((name) => {
    let stable = verdicts.get(name);
    if (stable === undefined) {
      stable = !isHashedClass(name) && !isStateClass(name);
      if (verdicts.size > 5000) verdicts.clear();
      verdicts.set(name, stable);
    }
    return stable;
  });
}

const UUID = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/i;
const GENERATED_ID_PREFIX =
  /^(ember|ext-gen|yui_|j_idt|mui-|react-select-|radix-|headlessui-|downshift-|rc-|tippy-|popover-|tooltip-|vs\d|ui-id-|gwt-uid-|__bs_|uid-|id-\d|select2-)/i;

/** True for ids produced by frameworks at render time (`:r1:`, `ember123`, UUIDs, counters). */
export function isUnstableId(id: string): boolean {
  if (!id || id.length > 80) return true;
  if (/[:«»]/.test(id)) return true; // React useId (`:r1:`, `«r1»`)
  if (UUID.test(id)) return true;
  if (GENERATED_ID_PREFIX.test(id)) return true;
  if (/\d{4,}/.test(id)) return true;
  if (/^\d/.test(id)) return true;
  return id.split(/[-_.]+/).some(isRandomLooking);
}

/** True for attribute values fit to select on: short, single-line, not generated. */
export function isStableValue(value: string): boolean {
  if (!value || value.length > 120 || /[\n\r]/.test(value)) return false;
  if (UUID.test(value)) return false;
  return !/[:«»]r[0-9a-z]+[:«»]/i.test(value);
}
