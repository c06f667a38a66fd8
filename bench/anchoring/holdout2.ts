/**
 * A second held-out edit set (pairs/<page>.holdout2.html), written before the anchoring changes of
 * issue #12 were measured on it and never tuned on: per page, components moved into another
 * container, icon buttons and links restyled or relabelled, deleted items that leave look-alikes
 * behind, and then everything at once (`STORM2`: a consent banner, wrappers around every section,
 * every class rebuilt, tracking attributes on every link and button). Kept apart from recipes.ts
 * (tuning), holdout.ts and hard.ts.
 */
import type { Mutation } from "./mutations.ts";

export const HOLDOUT2: Record<string, Mutation[]> = {
  blog: [
    { op: "move", sel: ".author-box", to: ".comments", where: "beforebegin" },
    { op: "move", sel: ".related-card", nth: 2, to: "article", where: "beforeend" },
    { op: "remove", sel: ".comment", nth: 2 },
    { op: "text", sel: ".comment button", nth: 0, to: "Reply to comment" },
    { op: "wrap", sel: "figure", html: '<div class="media-block"></div>' },
  ],
  dashboard: [
    { op: "move", sel: 'button[aria-label="Help"]', to: "aside", where: "beforeend" },
    { op: "attr", sel: 'button[aria-label="Notifications"]', name: "aria-label", value: "Notifications (3)" },
    { op: "text", sel: 'button[aria-label="Notifications (3)"]', to: "🔕" },
    { op: "move", sel: "section", nth: 1, to: "aside", where: "beforeend" },
    { op: "remove", sel: "tbody tr", nth: 4 },
  ],
  docs: [
    { op: "move", sel: ".toc", to: ".sidebar", where: "afterbegin" },
    { op: "move", sel: ".edit-link", to: ".docs-header", where: "beforeend" },
    { op: "remove", sel: ".sidebar ul li", nth: 3 },
    { op: "text", sel: ".pager a", nth: 1, to: "Next: Deployment →" },
    { op: "wrap", sel: ".params", html: '<div class="table-scroll"></div>' },
  ],
  faq: [
    { op: "move", sel: ".contact", to: ".help-hero", where: "beforeend" },
    { op: "move", sel: ".question", nth: 5, to: ".questions h2", toNth: 0, where: "afterend" },
    { op: "remove", sel: ".question", nth: 1 },
    { op: "text", sel: ".help-search button", to: "Search help" },
    { op: "class", sel: ".topic", all: true, add: ["chip"], remove: ["topic"] },
  ],
  form: [
    { op: "move", sel: ".sso", to: "form", where: "beforeend" },
    { op: "move", sel: ".switch", to: ".auth-header", where: "beforeend" },
    { op: "remove", sel: ".checkbox", nth: 0 },
    { op: "text", sel: ".submit", to: "Sign up" },
    { op: "wrap", sel: "form .field", all: true, html: '<div class="form-row"></div>' },
  ],
  header: [
    { op: "move", sel: ".icon-button", nth: 1, to: ".primary-nav", where: "beforeend" },
    { op: "attr", sel: '.icon-button[aria-label="Cart"]', name: "aria-label", value: "Basket" },
    { op: "text", sel: ".icon-button", nth: 0, to: "◎" },
    { op: "move", sel: ".tabs", to: ".intro", where: "beforeend" },
    { op: "remove", sel: ".sitemap-column li", nth: 2 },
  ],
  landing: [
    { op: "move", sel: ".site-header .btn-primary", to: ".hero > div", where: "afterbegin" },
    { op: "move", sel: ".feature-card", nth: 2, to: ".testimonials", where: "afterend" },
    { op: "remove", sel: ".feature-card", nth: 4 },
    { op: "text", sel: ".hero .btn", nth: 1, to: "Book a demo" },
    { op: "wrap", sel: ".logos img", all: true, html: '<figure class="logo-tile"></figure>' },
  ],
  news: [
    { op: "move", sel: ".weather", to: ".masthead", where: "beforeend" },
    { op: "move", sel: ".teaser", nth: 3, to: ".rail", where: "afterbegin" },
    { op: "remove", sel: ".teaser", nth: 6 },
    { op: "text", sel: ".newsletter button", to: "Sign me up" },
    { op: "attr", sel: ".teaser-more", all: true, name: "aria-label", value: "Read the full story" },
  ],
  pricing: [
    { op: "move", sel: ".billing-toggle", to: ".plans", where: "afterend" },
    { op: "move", sel: ".faq details", nth: 1, to: ".page-title", where: "beforeend" },
    { op: "remove", sel: ".plan-features li", nth: 1 },
    { op: "text", sel: ".plan-cta", nth: 0, to: "Try it free" },
    { op: "retag", sel: ".plan-name", all: true, tag: "h3" },
  ],
  settings: [
    { op: "move", sel: 'button[aria-label="Open user menu"]', to: "nav", where: "afterbegin" },
    { op: "move", sel: "main section", nth: 2, to: "nav", where: "afterend" },
    { op: "remove", sel: "tbody tr", nth: 3 },
    {
      op: "attr",
      sel: 'button[role="switch"]',
      nth: 1,
      name: "aria-label",
      value: "When someone mentions me",
    },
    { op: "class", sel: 'button[role="switch"]', all: true, remove: ["h-6", "w-11"], add: ["h-7", "w-12"] },
  ],
  shop: [
    { op: "move", sel: ".icon-link", nth: 0, to: ".toolbar", where: "afterbegin" },
    { op: "attr", sel: ".icon-link", nth: 2, name: "aria-label", value: "Shopping bag, 0 items" },
    { op: "text", sel: ".icon-link", nth: 1, to: "👤" },
    { op: "remove", sel: ".product-card", nth: 5 },
    { op: "text", sel: ".add-to-cart", all: true, to: "Add to bag" },
    { op: "move", sel: ".pagination", to: ".toolbar", where: "beforeend" },
  ],
  toolbar: [
    { op: "move", sel: '.tool[aria-label="Share"]', to: ".status-bar", where: "afterbegin" },
    { op: "move", sel: ".comment-card", nth: 0, to: ".canvas", where: "beforeend" },
    { op: "attr", sel: '.tool[aria-label="Insert image"]', name: "aria-label", value: "Add image" },
    { op: "class", sel: ".tool", all: true, remove: ["tool"], add: ["icon-btn"] },
    { op: "remove", sel: ".layer", nth: 2 },
    { op: "remove", sel: '[aria-label="Delete card"]', nth: 1 },
  ],
};

/** Everything at once, after each page's own edits. */
export const STORM2: Mutation[] = [
  {
    op: "insert",
    at: "body",
    where: "afterbegin",
    html: '<div class="consent"><p>We use cookies to improve this site.</p><button type="button">Accept all</button><button type="button">Settings</button></div>',
  },
  { op: "wrap", sel: "body > *:not(script):not(style)", all: true, html: '<div class="region"></div>' },
  { op: "rehash", pattern: "^()[A-Za-z][\\w-]*$", salt: "holdout2" },
  { op: "attr", sel: "a, button", all: true, name: "data-track", value: "ui" },
];
