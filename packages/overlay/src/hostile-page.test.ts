/**
 * Pages that try to stop or steer the overlay through its globals, the document's methods, the DOM
 * prototypes or its tag name (issue #29). A real snapshot runs no script of its own (CSP), so only markup
 * (the named global) is open to it; the scripted pages here act as a page that runs first would (the
 * widget's and the extension's case), through the harness's test-only page script, before the overlay.
 */
import type { Frame } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness, type View } from "./testing/harness.ts";

const page = (title: string, extra = "") => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${title}</title><style>body { margin: 0; font: 16px/1.5 sans-serif; } p { margin: 40px; }</style></head>
<body>${extra}
  <p id="target">A paragraph to comment on.</p>
  <p><a id="link" href="/elsewhere">A link the reviewer clicks while picking</a></p>
</body></html>`;

/** Markup only, as a snapshot could keep it: `window.__redlineOverlay` is these elements. */
const NAMED_GLOBAL = page(
  "Named global",
  `<div id="__redlineOverlay"></div><img name="__redlineOverlay" alt="">`,
);

/**
 * Replaces what the overlay calls: on `document` itself before the overlay runs, on the prototypes once it
 * has started (the page's DOMContentLoaded listeners run after our deferred script). Then it posts a
 * message that, read through its own MessageEvent getters, seems to come from the app.
 */
const REPLACING_SCRIPT = `
const hostile = () => { throw new Error("hostile page"); };
document.querySelector = () => null;
document.createElement = hostile;
document.addEventListener = () => undefined;
EventTarget.prototype.addEventListener.call(document, "DOMContentLoaded", () => {
  const appOrigin = Document.prototype.querySelector
    .call(document, "script[data-app-origin]").getAttribute("data-app-origin");
  Document.prototype.querySelector = () => null;
  Document.prototype.createElement = hostile;
  EventTarget.prototype.addEventListener = () => undefined;
  Element.prototype.attachShadow = hostile;
  Element.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
  Document.prototype.elementFromPoint = () => null;
  Document.prototype.elementsFromPoint = () => [];
  Event.prototype.preventDefault = () => undefined;
  Event.prototype.stopImmediatePropagation = () => undefined;
  Object.defineProperty(MessageEvent.prototype, "origin", { get: () => appOrigin });
  Object.defineProperty(MessageEvent.prototype, "source", { get: () => window.parent });
  window.onmessage = () => { window.forgedDelivered = true; };
  window.postMessage({ protocol: "redline/1", type: "overlay:mode", payload: { mode: "inspect" } }, "*");
});`;
// The harness's page script listens with the real addEventListener: it keeps counting the page's clicks.
const REPLACING = page("Replacing");

/** Takes the overlay's tag name first, with an element that refuses a shadow root and leaves the page. */
const OWN_ELEMENT_SCRIPT = `
customElements.define("redline-overlay", class extends HTMLElement {
  static disabledFeatures = ["shadow"];
  attachShadow() { throw new Error("hostile page"); }
  connectedCallback() { this.remove(); }
});`;
const OWN_ELEMENT = page("Own element", "<redline-overlay></redline-overlay>");

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness(
    { named: NAMED_GLOBAL, replacing: REPLACING, element: OWN_ELEMENT },
    { replacing: REPLACING_SCRIPT, element: OWN_ELEMENT_SCRIPT },
  );
});
afterAll(async () => {
  await harness?.close();
});

const documentPin = (id: string) => ({
  id,
  number: 1,
  anchor: null,
  dotPosition: { x: 0.5, y: 0.1 },
  isResolved: false,
  isSelected: false,
});

const state = (frame: Frame) =>
  frame.evaluate(() => (window as any).__redlineOverlay.state() as { mode: string; shown: number });

/** Our host, found without the page's own `redline-overlay` elements or its replaced methods. */
const drawnPins = (frame: Frame) =>
  frame.evaluate(() => {
    const host = Array.from(document.documentElement.children).find(
      (element) => element.localName.startsWith("redline-overlay") && element.shadowRoot,
    );
    return host?.shadowRoot?.querySelectorAll(".pin").length ?? 0;
  });

/** Starts, draws a pin, and picks `#target` in comment mode: what each hostile page must still get. */
async function expectWorkingOverlay(view: View) {
  await view.waitFor("overlay:ready");
  await view.send("pins:set", { pins: [documentPin("a")] });
  await view.send("overlay:mode", { mode: "comment" });
  await view.frame.waitForFunction(() => (window as any).__redlineOverlay?.state().mode === "comment");
  await view.settle();
  expect(await drawnPins(view.frame)).toBe(1);
  expect((await state(view.frame)).shown).toBe(1);

  // Measured by the browser, not by the page's (maybe replaced) getBoundingClientRect.
  const target = (await view.page.frameLocator("iframe#snapshot").locator("#target").boundingBox())!;
  const frameBox = (await view.page.locator("iframe#snapshot").boundingBox())!;
  const since = await view.mark();
  await view.page.mouse.click(target.x + 10, target.y + target.height / 2);
  const pick = await view.waitFor("pick:element", since);
  expect(pick.payload.anchor.selectors.css).toContain("target");
  const rect = pick.payload.rect;
  expect(rect.x).toBeCloseTo(target.x - frameBox.x, 1);
  expect(rect.y).toBeCloseTo(target.y - frameBox.y, 1);
  expect(rect.width).toBeCloseTo(target.width, 1);
  expect(rect.height).toBeCloseTo(target.height, 1);
  expect(pick.payload.dotPosition.x).toBeGreaterThan(0);
  expect(pick.payload.dotPosition.x).toBeLessThan(0.1);
}

describe("a page that shadows or replaces what the overlay relies on", () => {
  it("an element whose id is the overlay's global does not make it believe it has started", async () => {
    const view = await harness.open("named");
    await expectWorkingOverlay(view);
    await view.page.context().close();
  });

  it("replacing document methods and DOM prototypes neither stops nor steers it", async () => {
    const view = await harness.open("replacing");
    const replaced = await view.frame.evaluate(() => [
      typeof (document as any).createElement,
      Element.prototype.getBoundingClientRect.call(document.body).width,
    ]);
    expect(replaced).toEqual(["function", 0]); // the page did replace them
    // The page's forged "parent" message has arrived, and was not obeyed.
    await view.frame.waitForFunction(() => (window as any).forgedDelivered === true);
    await view.settle();
    expect((await state(view.frame)).mode).toBe("browse");
    await expectWorkingOverlay(view);

    // Picking still keeps the page's click from the page, though it emptied preventDefault and stopping.
    const link = (await view.page.frameLocator("iframe#snapshot").locator("#link").boundingBox())!;
    const since = await view.mark();
    await view.page.mouse.click(link.x + 5, link.y + link.height / 2);
    expect((await view.waitFor("pick:element", since)).payload.anchor.selectors.css).toContain("link");
    expect(await view.frame.evaluate(() => (window as any).pageClicks)).toBe(0);
    expect(view.frame.url()).toContain("/v/replacing.html");
    await view.page.context().close();
  });

  it("a custom element the page defined with the overlay's tag name first does not take its place", async () => {
    const view = await harness.open("element");
    await expectWorkingOverlay(view);
    await view.page.context().close();
  });
});
