/**
 * A third edit set per page, held out like holdout.ts (written after tuning, never tuned on), of the
 * kinds that defeat anchoring most: a component moved into another container, many changes at once
 * (a banner, wrappers, every class rebuilt, ids re-numbered, siblings re-ordered, copy edited, new
 * attributes everywhere, targets deleted), and buttons and icons (icon sets redrawn, labels reworded,
 * toolbars re-ordered). The benchmark reports it as its own scenario.
 */
import type { Mutation } from "./mutations.ts";

/** Applied to every page after its own moves: the "everything at once" part. */
export const STORM: Mutation[] = [
  {
    op: "insert",
    at: "body",
    where: "afterbegin",
    html: '<div class="consent"><p>We use cookies to improve this site.</p><button type="button">Accept all</button><button type="button">Reject</button></div>',
  },
  {
    op: "wrap",
    sel: "h1, h2",
    nth: 0,
    html: '<div class="heading-block"><div class="heading-inner"></div></div>',
  },
  { op: "attr", sel: "a, button", all: true, name: "data-analytics", value: "v3" },
  { op: "attr", sel: "button", all: true, name: "data-testid", value: "action" },
  { op: "reid", pattern: "(\\d+)", shift: 11 },
  // Every class rebuilt, as a CSS-in-JS or CSS-modules build does (the page's styles follow).
  // (The first letter is kept: a class name cannot start with a digit.)
  { op: "rehash", pattern: "^(?!consent$|heading-)([a-z])[a-z0-9_-]*$", salt: "storm" },
];

export const HARD: Record<string, Mutation[]> = {
  landing: [
    { op: "move", sel: ".testimonial", to: ".cta", where: "beforeend" },
    { op: "move", sel: ".main-nav", to: ".site-footer", where: "afterbegin" },
    { op: "text", sel: ".hero h1", to: "The handbook your team keeps current" },
    { op: "remove", sel: ".feature-card", nth: 2 },
  ],
  pricing: [
    { op: "move", sel: ".faq", to: ".page-title", where: "afterend" },
    { op: "move", sel: ".billing-toggle", to: ".plans", where: "afterend" },
    { op: "text", sel: ".plan-cta", nth: 0, to: "Try it free" },
    { op: "remove", sel: ".plan-features li", nth: 1 },
  ],
  blog: [
    { op: "move", sel: ".author-box", to: ".comments", where: "beforebegin" },
    { op: "move", sel: ".related-card", nth: 0, to: "article", where: "beforeend" },
    { op: "reorder", sel: ".comments", order: [2, 1, 0] },
    { op: "remove", sel: ".comment", nth: 0 },
  ],
  docs: [
    { op: "move", sel: ".toc", to: ".sidebar", where: "beforeend" },
    { op: "move", sel: ".edit-link", to: ".docs-header", where: "beforeend" },
    { op: "text", sel: ".content h1", to: "Configuration reference" },
    { op: "remove", sel: ".pager a", nth: 0 },
  ],
  faq: [
    { op: "move", sel: ".contact-card", nth: 0, to: ".help-hero", where: "beforeend" },
    { op: "move", sel: ".topic", nth: 1, to: ".questions", where: "afterbegin" },
    { op: "reorder", sel: ".questions", order: [3, 2, 1, 0] },
    { op: "remove", sel: ".question", nth: 2 },
  ],
  form: [
    { op: "move", sel: ".sso", to: "form", where: "beforeend" },
    { op: "move", sel: ".auth-header", to: ".auth-card", where: "afterbegin" },
    { op: "text", sel: ".submit", to: "Create my account" },
    { op: "remove", sel: ".hint", nth: 0 },
  ],
  header: [
    { op: "move", sel: ".utility-bar", to: ".sitemap", where: "beforebegin" },
    { op: "move", sel: ".mega-promo", nth: 0, to: ".intro", where: "beforeend" },
    { op: "reorder", sel: ".primary-nav ul", order: [3, 2, 1, 0] },
    { op: "remove", sel: ".sitemap-column", nth: 1 },
  ],
  news: [
    { op: "move", sel: ".weather", to: "main", where: "afterbegin" },
    { op: "move", sel: ".teaser", nth: 4, to: ".rail", where: "afterbegin" },
    {
      op: "text",
      sel: ".teaser-title",
      nth: 0,
      to: "Council approves the new tram line after a year of debate",
    },
    { op: "remove", sel: ".teaser", nth: 2 },
  ],
  settings: [
    { op: "move", sel: "main section", nth: 2, to: "main", where: "afterbegin" },
    { op: "move", sel: ".md-nav", to: "main", where: "beforeend" },
    { op: "remove", sel: "main section", nth: 1 },
  ],
  shop: [
    { op: "move", sel: ".product-card", nth: 2, to: ".filters", where: "afterbegin" },
    { op: "move", sel: ".result-count", to: ".store-footer", where: "afterbegin" },
    { op: "reorder", sel: ".product-grid", order: [5, 4, 3, 2, 1, 0] },
    { op: "remove", sel: ".product-card", nth: 7 },
  ],
  dashboard: [
    { op: "move", sel: "section", nth: 1, to: "aside", where: "beforeend" },
    { op: "reorder", sel: "aside", order: [2, 1, 0] },
    { op: "remove", sel: "section", nth: 0 },
  ],
  toolbar: [
    // A new icon set: every icon redrawn, and two buttons reworded.
    { op: "attr", sel: '[aria-label="Undo"] path', nth: 0, name: "d", value: "M3 7v6h6" },
    { op: "attr", sel: '[aria-label="Bold"] path', nth: 0, name: "d", value: "M7 5h6a3.5 3.5 0 0 1 0 7H7z" },
    { op: "attr", sel: '[aria-label="Share"] circle', nth: 0, name: "r", value: "2.5" },
    { op: "attr", sel: '[aria-label="Insert image"]', name: "aria-label", value: "Add image" },
    { op: "attr", sel: '[aria-label="Settings"]', name: "title", value: "Document settings" },
    { op: "reorder", sel: ".app-bar", order: [0, 4, 5, 6, 1, 2, 3] },
    { op: "move", sel: ".comments", to: ".canvas", where: "beforeend" },
    { op: "move", sel: ".status-bar button", nth: 1, to: ".app-bar", where: "beforeend" },
    { op: "remove", sel: ".doc-card", nth: 1 },
    { op: "remove", sel: '[aria-label="Italic"]' },
  ],
};
