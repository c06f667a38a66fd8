/**
 * anchor() against HTML fixture pairs in real Chromium: every target is described in the original
 * and anchored in the changed page (or the same page at another width). Removed targets must come
 * back null or needs-review; no target may ever land on a wrong element.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anchorTruth, closePage, describeTruth, launchChromium, openPage, verdict } from "./testing/index.ts";
import type { Anchor } from "./types.ts";

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), "utf8");
const TRUTH = "data-t";

let browser: Browser;
let anchors: Record<string, Anchor>;

beforeAll(async () => {
  browser = await launchChromium();
  const page = await openPage(browser, fixture("catalog.original.html"), 1280);
  anchors = await describeTruth(page, TRUTH);
  await closePage(page);
});

afterAll(async () => {
  await browser?.close();
});

async function anchorIn(html: string, width: number) {
  const page = await openPage(browser, html, width);
  try {
    return await anchorTruth(page, anchors, TRUTH);
  } finally {
    await closePage(page);
  }
}

describe("anchor", () => {
  it("produces JSON-serialisable anchors with the documented shape", () => {
    const anchor = anchors.title!;
    expect(JSON.parse(JSON.stringify(anchor))).toEqual(anchor);
    expect(anchor.v).toBe(1);
    expect(anchor.fingerprint.tag).toBe("h1");
    expect(anchor.fingerprint.text).toBe("spring collection");
    expect(anchor.dot).toEqual({ x: 0.25, y: 0.5 });
    expect(Object.keys(anchors)).toContain("buy-1");
  });

  it("finds every target exactly in the same document at 375 px", async () => {
    const { outcomes } = await anchorIn(fixture("catalog.original.html"), 375);
    for (const [truth, outcome] of Object.entries(outcomes)) {
      expect(outcome.found, truth).toBe(truth);
      expect(outcome.status, truth).toBe("exact");
    }
  });

  it("follows targets through banners, wrappers, re-sorting, re-hashing and edits — and never guesses", async () => {
    const { outcomes, present } = await anchorIn(fixture("catalog.mutated.html"), 1280);
    const exists = new Set(present);
    const verdicts = Object.fromEntries(
      Object.entries(outcomes).map(([truth, outcome]) => [truth, verdict(truth, outcome, exists.has(truth))]),
    );
    expect(Object.values(verdicts)).not.toContain("wrong");
    // Removed: the contact link and the whole "Linen shirt" card.
    for (const removed of ["nav-contact", "name-2", "price-2", "buy-2"]) {
      expect(exists.has(removed)).toBe(false);
      expect(["needs-review", null]).toContain(outcomes[removed]!.status);
    }
    // Moved, wrapped, re-hashed or edited, but still there.
    for (const kept of [
      "logo",
      "nav-shop",
      "nav-about",
      "cart",
      "title",
      "intro",
      "name-1",
      "price-1",
      "buy-1",
      "name-4",
      "price-4",
      "buy-4",
      "buy-3",
      "email-label",
      "email",
      "subscribe",
      "legal",
    ]) {
      expect(verdicts[kept], kept).toBe("correct");
    }
    // The legacy selector loses several of them.
    const baselineRight = Object.entries(outcomes).filter(([truth, outcome]) => outcome.baseline === truth);
    expect(baselineRight.length).toBeLessThan(Object.keys(outcomes).length - 4);
  });

  it("does not move a comment to a look-alike in another row", async () => {
    const rows = `<!doctype html><html><body><table><tbody>
      <tr><td>Alice</td><td>alice@example.com</td><td><button type="button">Remove</button></td></tr>
      <tr><td>Bob</td><td>bob@example.com</td><td><button type="button">Remove</button></td></tr>
      </tbody></table></body></html>`;
    const page = await openPage(browser, rows, 1280);
    try {
      const result = await page.evaluate(() => {
        const { anchor, describe } = window.RedlineAnchoring;
        const stored = describe(document.querySelector("button")!);
        // Alice leaves, Carol joins: Bob's button now stands where Alice's stood.
        document.querySelector("tr")!.remove();
        document
          .querySelector("tbody")!
          .insertAdjacentHTML(
            "beforeend",
            '<tr><td>Carol</td><td>carol@example.com</td><td><button type="button">Remove</button></td></tr>',
          );
        const found = anchor(document, stored);
        return { status: found?.status ?? null, candidates: found?.candidates?.length ?? 0 };
      });
      expect(result.status === null || result.status === "needs-review").toBe(true);
    } finally {
      await closePage(page);
    }
  });

  it("returns null when nothing plausible is left", async () => {
    const page = await openPage(browser, fixture("catalog.original.html"), 1280);
    try {
      const result = await page.evaluate(() => {
        const { anchor, describe } = window.RedlineAnchoring;
        const stored = describe(document.querySelector("h1")!);
        document.body.innerHTML = "<p>Maintenance</p>";
        return anchor(document, stored);
      });
      expect(result).toBeNull();
    } finally {
      await closePage(page);
    }
  });

  it("puts the dot back on the same spot of the element at another width", async () => {
    const page = await openPage(browser, fixture("catalog.original.html"), 1280);
    try {
      const stored = await page.evaluate(() => {
        const element = document.querySelector("h1")!;
        const box = element.getBoundingClientRect();
        return window.RedlineAnchoring.describe(element, { x: box.left + 30, y: box.top + box.height / 4 });
      });
      expect(stored.dot!.y).toBeCloseTo(0.25, 3);
      await page.setViewportSize({ width: 375, height: 800 });
      const placed = await page.evaluate((stored) => {
        const { anchor, dotPosition } = window.RedlineAnchoring;
        const found = anchor(document, stored)!;
        const box = found.element.getBoundingClientRect();
        return {
          point: dotPosition(found.element, stored),
          box: { left: box.left, top: box.top, width: box.width, height: box.height },
        };
      }, stored);
      expect(placed.point.x).toBeCloseTo(placed.box.left + stored.dot!.x * placed.box.width, 3);
      expect(placed.point.y).toBeCloseTo(placed.box.top + placed.box.height / 4, 1);
    } finally {
      await closePage(page);
    }
  });

  it("follows a page's only 'Buy now' button into another section, and a kept class name", async () => {
    const style =
      "<style>body { margin: 0; font-family: sans-serif; } header { padding: 24px; } .banner { padding: 12px 24px; }" +
      " section { padding: 32px 24px; min-height: 240px; } button { padding: 12px 28px; font-size: 18px; }</style>";
    const before =
      `${style}<header><h1>Acme shoes</h1></header><main><section class="hero"><p class="lead" data-t="lead">Light and fast.</p>` +
      `<button class="buy-a1b2c3" type="button" data-t="buy">Buy now</button></section>` +
      `<section class="details"><h2>Details</h2><p>Made of recycled materials.</p></section></main>`;
    const after =
      `${style}<div class="banner">Free shipping this week</div><header><h1>Acme shoes</h1></header><main>` +
      `<section class="hero"><p class="lead" data-t="lead">Light and fast.</p></section>` +
      `<section class="details"><h2>Details</h2><p>Made of recycled materials.</p>` +
      `<div class="actions"><button class="buy-z9y8x7" type="button" data-t="buy">Buy now</button></div></section></main>`;
    const original = await openPage(browser, before, 1280);
    const stored = await describeTruth(original, TRUTH);
    await closePage(original);
    const page = await openPage(browser, after, 1280);
    try {
      const { outcomes } = await anchorTruth(page, stored, TRUTH);
      expect(outcomes.buy).toMatchObject({ found: "buy", status: "fuzzy" });
      expect(outcomes.lead?.found).toBe("lead");
      expect(outcomes.lead?.status).not.toBe("needs-review");
    } finally {
      await closePage(page);
    }
  });

  it("follows a component moved into another container while every class is rebuilt around it", async () => {
    const style = (p: string) =>
      `<style>body { margin: 0; font-family: sans-serif; } .${p}-side { width: 240px; float: left; padding: 16px; }` +
      ` .${p}-main { margin-left: 280px; padding: 16px; } .${p}-card { border: 1px solid #ccc; padding: 12px; margin: 8px 0; }</style>`;
    const card = (p: string, extra = "") =>
      `<div class="${p}-card"${extra}><div class="${p}-head"${extra}><h3 class="${p}-name" data-t="author-name"${extra}>Nina Okafor</h3></div>` +
      `<p class="${p}-bio" data-t="author-bio"${extra}>Writes about build systems and the people who maintain them.</p>` +
      `<a class="${p}-link" href="/authors/nina" data-t="author-link"${extra}>All posts by Nina</a></div>`;
    const before =
      `${style("a1")}<aside class="a1-side"><p>Related</p></aside><main class="a1-main"><h1>Faster CI</h1>` +
      `<p>We cut our build time in half.</p>${card("a1")}<p>Comments are closed.</p></main>`;
    // Next release: the author card moves into the sidebar, every class is regenerated, a banner arrives.
    const after =
      `${style("q7")}<div class="q7-banner">We use cookies.</div><aside class="q7-side"><p>Related</p>${card("q7", ' data-analytics="v3" data-variant="b"')}</aside>` +
      `<main class="q7-main"><div class="q7-title"><h1>Faster CI</h1></div><p>We cut our build time in half.</p>` +
      `<p>Comments are closed.</p></main>`;
    const original = await openPage(browser, before, 1280);
    const stored = await describeTruth(original, TRUTH);
    await closePage(original);
    const page = await openPage(browser, after, 1280);
    try {
      const { outcomes } = await anchorTruth(page, stored, TRUTH);
      for (const truth of ["author-name", "author-bio", "author-link"]) {
        expect(outcomes[truth]?.found, truth).toBe(truth);
        expect(outcomes[truth]?.status, truth).not.toBe("needs-review");
      }
    } finally {
      await closePage(page);
    }
  });

  it("does not pin a deleted icon button to its twin on another card", async () => {
    const icon = '<svg viewBox="0 0 24 24" width="16" height="16"><path d="M20 6 9 17l-5-5"/></svg>';
    const comment = (who: string, text: string, truth: string) =>
      `<div class="comment"><b>${who}</b><p>${text}</p><button type="button" aria-label="Resolve comment" data-t="${truth}">${icon}</button></div>`;
    const before = `<main>${comment("Maya", "Can we split the goal by region?", "maya")}${comment("Jonas", "The designer role is open.", "jonas")}</main>`;
    const after = `<main>${comment("Maya", "Can we split the goal by region?", "maya")}</main>`;
    const original = await openPage(browser, before, 1280);
    const stored = await describeTruth(original, TRUTH);
    await closePage(original);
    const page = await openPage(browser, after, 1280);
    try {
      const { outcomes } = await anchorTruth(page, stored, TRUTH);
      expect(outcomes.maya?.found).toBe("maya");
      expect([null, "needs-review"]).toContain(outcomes.jonas?.status ?? null);
    } finally {
      await closePage(page);
    }
  });

  it("recognises an icon button by its drawing and name after its classes changed and its twin got another label", async () => {
    const icons: Record<string, string> = {
      bold: '<path d="M6 4h8a4 4 0 0 1 0 8H6z"/><path d="M6 12h9a4 4 0 0 1 0 8H6z"/>',
      italic: '<path d="M19 4h-9M14 20H5M15 4 9 20"/>',
      link: '<path d="M10 13a5 5 0 0 0 7 0l3-3a5 5 0 0 0-7-7l-1 1"/>',
      image: '<rect x="3" y="3" width="18" height="18" rx="2"/><circle cx="9" cy="9" r="2"/>',
    };
    const labels: Record<string, string> = {
      bold: "Bold",
      italic: "Italic",
      link: "Insert link",
      image: "Insert image",
    };
    const button = (key: string, className: string, label = labels[key]) =>
      `<button type="button" class="${className}" aria-label="${label}" data-t="${key}"><svg viewBox="0 0 24 24" width="20" height="20">${icons[key]}</svg></button>`;
    const before = `<header class="bar-a1"><h1>Q3 plan</h1>${["bold", "italic", "link", "image"].map((key) => button(key, "tool-a1")).join("")}</header>`;
    // A rebuild renames every class, the image button is relabelled and the toolbar re-ordered.
    const after =
      `<header class="bar-x9"><h1>Q3 plan</h1>${button("image", "icon-x9", "Add image")}` +
      `${["bold", "italic", "link"].map((key) => button(key, "icon-x9")).join("")}</header>`;
    const original = await openPage(browser, before, 1280);
    const stored = await describeTruth(original, TRUTH);
    await closePage(original);
    expect(stored.bold?.fingerprint.icon).toMatch(/^path:M6 4h8/);
    const page = await openPage(browser, after, 1280);
    try {
      const { outcomes } = await anchorTruth(page, stored, TRUTH);
      for (const truth of ["bold", "italic", "link", "image"]) {
        expect(outcomes[truth]?.found, truth).toBe(truth);
        expect(outcomes[truth]?.status, truth).not.toBe("needs-review");
      }
    } finally {
      await closePage(page);
    }
  });

  it("follows a component moved into another container and wrapped in a look-alike, every class rebuilt", async () => {
    const before =
      `<div class="crumbs-a1" data-t="crumbs">Home › Computers › Laptops</div><main class="main-a1"><h1>Laptops</h1>` +
      `<p class="lead-a1" data-t="lead">Thin, light and fast machines for work and study.</p></main><aside class="side-a1"><h2>Filters</h2></aside>`;
    // The breadcrumb moves into the sidebar inside a new wrapper of the same tag; new attributes everywhere.
    const after =
      `<div class="promo-z3">Winter sale</div><main class="main-z3" data-block="1"><h1>Laptops</h1>` +
      `<p class="lead-z3" data-block="1" data-t="lead">Thin, light and fast machines for work and study.</p></main>` +
      `<aside class="side-z3"><h2>Filters</h2><div class="shell-z3"><div class="crumbs-z3" data-block="1" data-t="crumbs">Home › Computers › Laptops</div></div></aside>`;
    const original = await openPage(browser, before, 1280);
    const stored = await describeTruth(original, TRUTH);
    await closePage(original);
    const page = await openPage(browser, after, 1280);
    try {
      const { outcomes } = await anchorTruth(page, stored, TRUTH);
      expect(outcomes.crumbs).toMatchObject({ found: "crumbs" });
      expect(outcomes.crumbs?.status).not.toBe("needs-review");
      expect(outcomes.lead).toMatchObject({ found: "lead" });
      expect(outcomes.lead?.status).not.toBe("needs-review");
    } finally {
      await closePage(page);
    }
  });

  it("tells twin row buttons apart by their row, and leaves a deleted row's button unpinned", async () => {
    const row = (invoice: string, customer: string, truth: string) =>
      `<tr><td><a href="/invoices/${invoice}">${invoice}</a></td><td>${customer}</td>` +
      `<td><button type="button" class="btn-a1" data-t="${truth}">Send reminder</button></td></tr>`;
    const before = `<table><tbody>${row("INV-2031", "Bluebird", "r1")}${row("INV-2032", "Kestrel", "r2")}${row("INV-2033", "Marlow", "r3")}</tbody></table>`;
    // Rows re-sorted, the Kestrel invoice deleted, every class rebuilt.
    const after =
      `<table><tbody>${row("INV-2033", "Marlow", "r3")}${row("INV-2031", "Bluebird", "r1")}</tbody></table>`.replaceAll(
        "btn-a1",
        "btn-q8",
      );
    const original = await openPage(browser, before, 1280);
    const stored = await describeTruth(original, TRUTH);
    await closePage(original);
    const page = await openPage(browser, after, 1280);
    try {
      const { outcomes } = await anchorTruth(page, stored, TRUTH);
      expect(outcomes.r1?.found).toBe("r1");
      expect(outcomes.r3?.found).toBe("r3");
      expect([null, "needs-review"]).toContain(outcomes.r2?.status ?? null);
    } finally {
      await closePage(page);
    }
  });
  it("leaves a deleted row unpinned when a row of the same customer stays, by its record key", async () => {
    const row = (invoice: string, customer: string, status: string, truth: string) =>
      `<tr><td><a href="/invoices/${invoice}">${invoice}</a></td><td data-t="${truth}-customer">${customer}</td>` +
      `<td><span data-t="${truth}-status">${status}</span></td><td>$1,150.00</td></tr>`;
    const rows = [
      row("INV-2040", "Kestrel Studio", "Overdue", "a"),
      row("INV-2034", "Kestrel Studio", "Paid", "b"),
      row("INV-2033", "Fenwick Legal", "Overdue", "c"),
    ];
    const before = `<main><h1>Invoices</h1><table class="t-a1"><tbody>${rows.join("")}</tbody></table></main>`;
    // INV-2040 is deleted, the table moves into a new wrapper, every class is rebuilt.
    const after = `<div class="shell-q2"><main><h1>Invoices</h1><div><table class="t-q2"><tbody>${rows[2]}${rows[1]}</tbody></table></div></main></div>`;
    const original = await openPage(browser, before, 1280);
    const stored = await describeTruth(original, TRUTH);
    await closePage(original);
    const page = await openPage(browser, after, 1280);
    try {
      const { outcomes } = await anchorTruth(page, stored, TRUTH);
      expect([null, "needs-review"]).toContain(outcomes["a-customer"]?.status ?? null);
      expect([null, "needs-review"]).toContain(outcomes["a-status"]?.status ?? null);
      for (const truth of ["b-customer", "b-status", "c-customer", "c-status"]) {
        expect(outcomes[truth]?.found, truth).toBe(truth);
        expect(outcomes[truth]?.status, truth).not.toBe("needs-review");
      }
    } finally {
      await closePage(page);
    }
  });

  it("tells two cells with the same text apart by the side their neighbours stand on", async () => {
    const table = (prefix: string, extra = "") =>
      `<table class="${prefix}-compare"><tbody>${extra}<tr><td>Projects</td><td>3</td><td data-t="team">Unlimited</td><td data-t="business">Unlimited</td></tr>` +
      "<tr><td>Storage</td><td>1 GB</td><td>100 GB</td><td>1 TB</td></tr></tbody></table>";
    const before = `<main><h2>Compare plans</h2>${table("a1")}</main>`;
    // A row is added above, the table is wrapped and every class is rebuilt.
    const after = `<main><h2>Compare plans</h2><div class="scroll-z4">${table("z4", "<tr><td>Automations</td><td>5</td><td>100</td><td>Unlimited</td></tr>")}</div></main>`;
    const original = await openPage(browser, before, 1280);
    const stored = await describeTruth(original, TRUTH);
    await closePage(original);
    const page = await openPage(browser, after, 1280);
    try {
      const { outcomes } = await anchorTruth(page, stored, TRUTH);
      expect(outcomes.team).toMatchObject({ found: "team" });
      expect(outcomes.business).toMatchObject({ found: "business" });
      expect(outcomes.team?.status).not.toBe("needs-review");
      expect(outcomes.business?.status).not.toBe("needs-review");
    } finally {
      await closePage(page);
    }
  });

  it("follows a one-off heading and a labelled symbol button into other containers, but not a deleted one", async () => {
    const before =
      `<header class="h-a1"><a href="/">Voltmart</a><button type="button" aria-label="Account" data-t="account">👤</button>` +
      `<button type="button" aria-label="Cart" data-t="cart">🛒</button><button type="button" aria-label="Wish list" data-t="wish">♡</button></header>` +
      `<main><p>Laptops from featherweight ultrabooks to workstations.</p><section class="r-a1"><h2 data-t="related">Related posts</h2>` +
      "<p>Hunting flaky tests at scale</p><p>Three years of build data</p></section></main>";
    // The cart button moves into the navigation, the wish list button is deleted, the related posts
    // move to the top of another column with other cards; a banner, wrappers and new classes.
    const after =
      `<div class="promo-k2">Winter sale <button type="button" aria-label="Dismiss">×</button></div><div class="shell-k2"><header class="h-k2"><a href="/">Voltmart</a>` +
      `<button type="button" aria-label="Account" data-t="account">👤</button></header></div>` +
      `<nav class="n-k2"><a href="/deals">Deals</a><a href="/guides">Buying guides</a><button type="button" aria-label="Cart" data-t="cart">🛒</button></nav>` +
      `<div class="shell-k2"><aside><section class="r-k2"><h2 data-t="related">Related posts</h2><p>Why we moved to a monorepo</p></section></aside>` +
      "<main><p>Laptops from featherweight ultrabooks to workstations.</p></main></div>";
    const original = await openPage(browser, before, 1280);
    const stored = await describeTruth(original, TRUTH);
    await closePage(original);
    expect(stored.cart?.fingerprint.twins).toBe(0);
    const page = await openPage(browser, after, 1280);
    try {
      const { outcomes } = await anchorTruth(page, stored, TRUTH);
      for (const truth of ["account", "cart", "related"]) {
        expect(outcomes[truth]?.found, truth).toBe(truth);
        expect(outcomes[truth]?.status, truth).not.toBe("needs-review");
      }
      expect([null, "needs-review"]).toContain(outcomes.wish?.status ?? null);
    } finally {
      await closePage(page);
    }
  });

  it("counts a described element's twins, so a lone 'Reply' left by a deleted comment is not taken for it", async () => {
    const comment = (who: string, text: string, truth: string) =>
      `<div class="comment"><b>${who}</b><p>${text}</p><button type="button" data-t="${truth}">Reply</button></div>`;
    const maya = comment("Maya", "Can we split the revenue goal by region?", "maya");
    const jonas = comment("Jonas", "The designer role is open again.", "jonas");
    const before = `<main><h2>2 comments</h2>${maya}${jonas}</main>`;
    // Maya's comment is deleted; Jonas's moves to the top of another container.
    const after = `<div class="shell"><aside>${jonas}</aside><main><h2>1 comment</h2></main></div>`;
    const original = await openPage(browser, before, 1280);
    const stored = await describeTruth(original, TRUTH);
    await closePage(original);
    expect(stored.maya?.fingerprint.twins).toBe(1);
    const page = await openPage(browser, after, 1280);
    try {
      const { outcomes } = await anchorTruth(page, stored, TRUTH);
      expect(outcomes.jonas?.found).toBe("jonas");
      expect([null, "needs-review"]).toContain(outcomes.maya?.status ?? null);
    } finally {
      await closePage(page);
    }
  });
});
