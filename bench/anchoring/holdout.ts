/**
 * A second, independent edit set per page, written after the weights and thresholds were tuned on
 * recipes.ts and never used for tuning: the benchmark reports it separately as a check that the
 * tuning generalises.
 */
import type { Mutation } from "./mutations.ts";

export const HOLDOUT: Record<string, Mutation[]> = {
  landing: [
    { op: "retag", sel: ".hero .btn", all: true, tag: "button" },
    { op: "wrap", sel: ".main-nav", html: '<div class="nav-shell"></div>' },
    { op: "reorder", sel: ".testimonials", order: [2, 1, 0] },
    {
      op: "text",
      sel: ".feature-card p",
      nth: 1,
      to: "Every page has an owner, reminded when the page is due for review.",
    },
    {
      op: "insert",
      at: "#features",
      where: "beforebegin",
      html: '<section class="container stats"><h2>By the numbers</h2><p>4,000 teams · 2M pages · 99.99% uptime</p><a href="/customers">Learn more</a></section>',
    },
    { op: "remove", sel: ".logos img", nth: 0 },
    { op: "text", sel: ".lead", from: "searchable handbook", to: "searchable, always-current handbook" },
  ],
  pricing: [
    { op: "reorder", sel: ".plans", order: [2, 1, 0] },
    {
      op: "text",
      sel: ".plan-description",
      nth: 0,
      to: "For organisations that need control, audit logs and scale.",
    },
    { op: "retag", sel: ".plan-name", all: true, tag: "h3" },
    { op: "remove", sel: ".compare tbody tr", nth: 2 },
    { op: "wrap", sel: ".compare table", html: '<div class="table-scroll"></div>' },
    { op: "text", sel: ".faq summary", nth: 2, to: "Which payment methods do you accept?" },
  ],
  blog: [
    { op: "wrap", sel: "article > p", nth: 2, html: '<div class="drop-cap"></div>' },
    { op: "reorder", sel: ".comments", order: [0, 4, 3, 2, 1] },
    {
      op: "text",
      sel: "article li",
      nth: 1,
      to: "Bigger runners for every job, which doubled the bill for a 10% gain.",
    },
    { op: "remove", sel: "blockquote" },
    { op: "insert", at: "article h1", where: "beforebegin", html: '<p class="kicker">Engineering</p>' },
    { op: "attr", sel: ".author-box img", name: "src", value: "/img/authors/nina-2026.jpg" },
  ],
  docs: [
    { op: "reorder", sel: ".sidebar", order: [2, 3, 0, 1, 4, 5] },
    {
      op: "text",
      sel: ".params td",
      nth: 3,
      to: "Connection string of the database (required in production).",
    },
    { op: "remove", sel: ".params tbody tr", nth: 4 },
    { op: "wrap", sel: ".content pre", html: '<div class="code-block"></div>' },
    { op: "text", sel: ".toc-title", to: "Contents" },
    {
      op: "insert",
      at: ".content h1",
      where: "afterend",
      html: '<p class="meta">Last updated on November 2, 2026</p>',
    },
  ],
  shop: [
    { op: "reorder", sel: ".product-grid", order: [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0] },
    { op: "text", sel: ".add-to-cart", all: true, to: "Add to bag" },
    { op: "remove", sel: '.product-card:has(a[href="/p/beanie-rust"])' },
    { op: "text", sel: ".product-rating", nth: 3, to: "4.7 ★ (131)" },
    { op: "wrap", sel: ".product-price", all: true, html: '<div class="price-row"></div>' },
    { op: "text", sel: ".toolbar h1", to: "Men's clothing & accessories" },
  ],
  dashboard: [
    { op: "rehash", pattern: "^(css-)[a-z0-9]+$", salt: "holdout" },
    { op: "rehash", pattern: "^(sc-)[A-Za-z]+$", salt: "holdout" },
    { op: "reid", pattern: ":r(\\d+):", shift: 7 },
    { op: "reorder", sel: "tbody", order: [9, 8, 7, 6, 5, 4, 3, 2, 1, 0] },
    { op: "text", sel: "tbody td:nth-child(4)", nth: 0, to: "$900.00" },
    { op: "remove", sel: '[role="tab"]', nth: 3 },
    {
      op: "insert",
      at: "h1",
      where: "afterend",
      html: "<p>Invoices are sent automatically on the 1st of each month.</p>",
    },
  ],
  form: [
    { op: "reid", pattern: ":r(\\d+):", shift: 3 },
    { op: "move", sel: '.field:has(input[name="company"])', to: ".row", where: "beforebegin" },
    { op: "text", sel: ".choices legend", to: "How many parcels do you ship each month?" },
    { op: "remove", sel: ".sso button", nth: 1 },
    { op: "retag", sel: ".subtitle", tag: "h2" },
    { op: "text", sel: ".checkbox", nth: 0, from: "product updates and shipping tips", to: "product news" },
  ],
  header: [
    { op: "retag", sel: ".nav-trigger", all: true, tag: "a" },
    { op: "reorder", sel: ".mega-panel", order: [3, 2, 1, 0, 4] },
    { op: "remove", sel: ".utility-bar a", nth: 1 },
    { op: "text", sel: ".mega-heading a", nth: 2, to: "Accessories & peripherals" },
    { op: "wrap", sel: ".tabs a", all: true, html: '<span class="tab"></span>' },
    { op: "text", sel: ".intro h1", to: "Laptops & notebooks" },
  ],
  news: [
    { op: "reorder", sel: ".teasers", order: [5, 6, 7, 8, 9, 0, 1, 2, 3, 4] },
    {
      op: "text",
      sel: ".teaser-summary",
      nth: 2,
      to: "The design doubles battery life for on-device assistants, the company claims.",
    },
    { op: "remove", sel: ".teaser--culture" },
    { op: "remove", sel: ".weather" },
    { op: "insert", at: ".rail", where: "afterbegin", html: '<div class="ad">Advertisement</div>' },
    { op: "text", sel: ".standfirst", from: "four votes", to: "three votes" },
  ],
  settings: [
    { op: "class", sel: "section", all: true, remove: ["rounded-lg"], add: ["rounded-xl"] },
    { op: "reorder", sel: "tbody", order: [5, 4, 3, 2, 1, 0] },
    { op: "text", sel: "tbody td:nth-child(2)", nth: 2, to: "chen.wei@orbitly.io" },
    { op: "remove", sel: '[role="switch"]', nth: 3 },
    {
      op: "insert",
      at: "main h1",
      where: "afterend",
      html: '<p class="text-sm text-gray-500">Manage how your workspace looks and who can use it.</p>',
    },
    { op: "text", sel: "section h2", nth: 3, to: "Delete workspace" },
  ],
  faq: [
    { op: "reorder", sel: ".questions", order: [5, 6, 7, 0, 1, 2, 3, 4, 8, 9, 10] },
    { op: "text", sel: ".question summary", nth: 0, to: "Which passes can I buy?" },
    { op: "remove", sel: ".topic", nth: 2 },
    { op: "wrap", sel: ".question p", all: true, html: '<div class="answer"></div>' },
    { op: "text", sel: ".help-hero h1", to: "How can we help you today?" },
  ],

  toolbar: [
    { op: "attr", sel: '[aria-label="Insert link"]', name: "aria-label", value: "Add link" },
    { op: "wrap", sel: ".layers .layer", all: true, html: '<div class="layer-row"></div>' },
    { op: "reorder", sel: ".canvas", order: [2, 0, 1] },
    { op: "remove", sel: '.status-bar [aria-label="Zoom out"]' },
  ],
};
