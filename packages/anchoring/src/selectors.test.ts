/** Selector generation in a real browser (Chromium, the browser build injected). */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePage, launchChromium, openPage } from "./testing/index.ts";

const HTML = `<!doctype html><html><body>
<div id="app">
  <header class="css-1x2y3z sc-bdVaJa">
    <a href="/" class="css-9q8w7e">Home</a>
    <a href="/pricing" class="nav-link">Pricing</a>
    <a href="/docs" class="nav-link">Docs</a>
    <button type="button" aria-label="Open menu" class="jsx-123456"></button>
  </header>
  <main id=":r1:">
    <section class="ember123 features">
      <div class="card"><h3>One</h3><a href="#">Learn more</a></div>
      <div class="card"><h3>Two</h3><a href="#">Learn more</a></div>
      <div class="card"><h3>Three</h3><a href="#">Learn more</a></div>
    </section>
    <form><input name="email" type="email"><input name="q" data-testid="search-box">
      <button type="submit">Go</button></form>
    <p id='we"ird:id'>odd id</p>
    <ul><li>a</li><li>b</li><li>c</li></ul>
    <svg><circle r="4"></circle><circle r="5"></circle></svg>
  </main>
</div>
</body></html>`;

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await openPage(browser, HTML);
});

afterAll(async () => {
  if (page) await closePage(page);
  await browser?.close();
});

/** Describes every element matching `selector` and checks each stored selector in the page. */
async function selectorsOf(selector: string) {
  return page.evaluate((selector) => {
    return Array.from(document.querySelectorAll(selector)).map((element) => {
      const anchor = window.RedlineAnchoring.describe(element);
      const css = (value: string | null) => {
        if (!value) return null;
        const found = document.querySelectorAll(value);
        return found.length === 1 && found[0] === element;
      };
      const xpath = document.evaluate(anchor.selectors.xpath, document, null, 7, null);
      return {
        querySelector: anchor.querySelector,
        css: anchor.selectors.css,
        idPath: anchor.selectors.idPath,
        xpath: anchor.selectors.xpath,
        uniqueQuery: css(anchor.querySelector),
        uniqueCss: css(anchor.selectors.css),
        uniqueIdPath: anchor.selectors.idPath === null ? null : css(anchor.selectors.idPath),
        uniqueXpath: xpath.snapshotLength === 1 && xpath.snapshotItem(0) === element,
      };
    });
  }, selector);
}

describe("selectors", () => {
  it("are unique for every element of the page", async () => {
    const all = await selectorsOf("body *");
    expect(all.length).toBeGreaterThan(20);
    for (const entry of all) {
      expect(entry.uniqueQuery, entry.querySelector).toBe(true);
      expect(entry.uniqueCss, entry.css).toBe(true);
      expect(entry.uniqueXpath, entry.xpath).toBe(true);
      if (entry.idPath !== null) expect(entry.uniqueIdPath, entry.idPath).toBe(true);
    }
  });

  it("prefer stable attributes and never use generated classes or ids", async () => {
    const [pricing] = await selectorsOf('a[href="/pricing"]');
    expect(pricing!.querySelector).toBe('a[href="/pricing"]');
    const [menu] = await selectorsOf("button[aria-label]");
    expect(menu!.querySelector).toBe('button[aria-label="Open menu"]');
    const [search] = await selectorsOf("[data-testid]");
    expect(search!.querySelector).toBe('[data-testid="search-box"]');
    const [email] = await selectorsOf('input[name="email"]');
    expect(email!.querySelector).toBe('input[name="email"]');
    const all = await selectorsOf("body *");
    for (const entry of all) {
      for (const selector of [entry.querySelector, entry.css, entry.idPath ?? ""]) {
        expect(selector).not.toMatch(/css-|sc-|jsx-|ember123|:r1:|\\:r1\\:/);
      }
    }
  });

  it("anchor id paths at the nearest stable id and escape odd ids", async () => {
    const [home] = await selectorsOf('a[href="/"]');
    expect(home!.idPath).toMatch(/^#app > header > a:nth-of-type\(1\)$/);
    const [odd] = await selectorsOf("p");
    expect(odd!.uniqueQuery).toBe(true);
  });

  it("tell repeated siblings apart by position only when nothing else does", async () => {
    const links = await selectorsOf(".card a");
    expect(new Set(links.map((entry) => entry.querySelector)).size).toBe(3);
    for (const entry of links) expect(entry.querySelector).toMatch(/nth-of-type/);
    const circles = await selectorsOf("circle");
    expect(circles[1]!.xpath).toMatch(/\*\[local-name\(\)='circle'\]\[2\]$/);
  });
});
