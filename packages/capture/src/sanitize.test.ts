/**
 * The sanitizer runs inside the captured page's renderer, in an isolated world: whatever the page's own
 * scripts did to their DOM, prototypes and globals must change nothing in what it removes or keeps.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath } from "./capturer.ts";
import { sanitizeInIsolatedWorld } from "./sanitize.ts";

let browser: Browser;
let page: Page;

/** What a hostile page does to its own world before its snapshot is sanitized. */
const PATCHES = `
  const keep = (value) => /alert|createElement/.test(String(value));
  const removeAttribute = Element.prototype.removeAttribute;
  Element.prototype.removeAttribute = function (name) {
    if (keep(this.getAttribute(name))) return;
    return removeAttribute.call(this, name);
  };
  const remove = Element.prototype.remove;
  Element.prototype.remove = function () {
    if (keep(this.textContent)) return;
    return remove.call(this);
  };
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (keep(this.getAttribute(name))) return;
    return setAttribute.call(this, name, value);
  };
  const parse = DOMParser.prototype.parseFromString;
  DOMParser.prototype.parseFromString = function (source, type) {
    return parse.call(this, String(source) + "<script>alert('parser')<\\/script>", type);
  };
  RegExp.prototype.test = () => false;
  var login = "a global of the page's own";
`;

const RAW = `<!doctype html><html><head><title>t</title></head><body>
  <img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onload="alert('onload')">
  <script>alert('script')</script>
  <a id="link" href="javascript:alert('link')">link</a>
  <img name="createElement" alt=""><form name="login"></form><img id="logo" alt="">
</body></html>`;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: chromiumPath() });
  page = await browser.newPage();
  await page.setContent(
    `<!doctype html><body><form name="login"></form><img id="logo" alt=""><script>${PATCHES}</script></body>`,
  );
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

describe("sanitizing in an isolated world of the captured page", () => {
  it("removes scripts, handlers and javascript: links whatever the page patched", async () => {
    const html = await sanitizeInIsolatedWorld(page.context(), page, RAW);
    expect(html).not.toContain("<script");
    expect(html).not.toContain("onload");
    expect(html).not.toContain("javascript:");
    expect(html).toContain('<a id="link" href="#">link</a>');
  });

  it("renames what would shadow document members, not the names the live page itself exposes", async () => {
    const html = await sanitizeInIsolatedWorld(page.context(), page, RAW);
    expect(html).toContain('name="redline-createElement"');
    expect(html).toContain('<form name="login">');
    expect(html).toContain('<img id="logo" alt="">');
  });

  it("leaves the page's own world untouched", async () => {
    await sanitizeInIsolatedWorld(page.context(), page, RAW);
    expect(
      await page.evaluate("typeof login === 'string' && RegExp.prototype.test.call(/a/, 'a') === false"),
    ).toBe(true);
  });
});
