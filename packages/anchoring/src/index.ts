/**
 * @redline/anchoring — pins a comment to an element of a captured page and finds that element again
 * when the page changes (a new captured version, another device width, copied comments).
 *
 * Pure DOM code with no dependencies: it runs inside the captured page (bundled into the overlay, or
 * as the ESM browser build `dist/anchoring.js` from `npm run build -w @redline/anchoring`).
 *
 *   describe(element, point?) → Anchor
 *     `point` is the click in client (viewport) coordinates; it is stored as a fraction of the
 *     element's box (`dot`). The Anchor is plain JSON: store it as is.
 *   anchor(document, anchor) → { element, score, status, candidates? } | null
 *     "exact"        a stored selector finds the element and its fingerprint barely changed;
 *     "fuzzy"        found by fingerprint similarity, clearly ahead of any other element;
 *     "needs-review" a close call or a weak match: `element` is the best guess and `candidates` the
 *                    plausible ones, best first — ask the reviewer, do not pin silently;
 *     null           nothing plausible: mark the comment orphaned.
 *   dotPosition(element, anchor) → { x, y }
 *     the stored click point on the (re-)anchored element, in client coordinates.
 *
 * Anchor = { v: 1, querySelector, selectors: { css, xpath, idPath }, fingerprint, dot } — see
 * types.ts. `querySelector` is the spec's legacy field: a short CSS selector unique when described.
 * Selectors avoid generated class names and ids (stability.ts); matching is a weighted similarity of
 * the fingerprint in the manner of Similo (score.ts), with thresholds in anchor.ts. Its accuracy on
 * the benchmark corpus is in docs/PERFORMANCE.md ("Anchoring").
 */
export { anchor } from "./anchor.ts";
export { describe, dotPosition } from "./describe.ts";
export { normaliseText } from "./text.ts";
export type { Anchor, AnchorResult, AnchorStatus, Fingerprint, Rect } from "./types.ts";
