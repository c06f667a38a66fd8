import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRICING_PAGE } from "./testing/fixtures.ts";
import { type Harness, startHarness, type View } from "./testing/harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ pricing: PRICING_PAGE });
});
afterAll(async () => {
  await harness?.close();
});

/** Shadow-root facts about the outline, read inside the snapshot. */
function highlight(view: View) {
  return view.frame.evaluate(() => {
    const root = document.querySelector("redline-overlay")?.shadowRoot;
    const element = root?.querySelector<HTMLElement>(".highlight");
    if (!element || element.hidden) return null;
    const { x, y, width, height } = element.getBoundingClientRect();
    return { x, y, width, height };
  });
}

async function clickAt(view: View, selector: string, fraction: { x: number; y: number }) {
  const box = await view.rect(selector);
  const point = await view.toPage({ x: box.x + box.width * fraction.x, y: box.y + box.height * fraction.y });
  await view.page.mouse.click(point.x, point.y);
}

describe("overlay start-up", () => {
  it("adds one namespaced element and one frozen global, breaks no CSP rule, and says it is ready", async () => {
    const view = await harness.open("pricing");
    const ready = await view.waitFor("overlay:ready");
    expect(ready.protocol).toBe("redline/1");
    // On a busy machine the frame may lay out once before it has its width; the overlay then reports the
    // change (document:size). What it settles on is the frame's size.
    const settled = async () => [ready, ...(await view.messages("document:size"))].at(-1)!.payload;
    await expect.poll(async () => (await settled()).width).toBe(1024);
    await expect.poll(async () => (await settled()).height).toBeGreaterThan(2000);
    expect(ready.payload.url).toContain("/v/pricing.html");
    const facts = await view.frame.evaluate(() => {
      const api = (window as any).__redlineOverlay;
      return {
        hosts: document.querySelectorAll("redline-overlay").length,
        parent: document.querySelector("redline-overlay")?.parentElement?.tagName,
        inBody: document.body.querySelector("redline-overlay") !== null,
        frozen: Object.isFrozen(api),
        state: api.state(),
        cspViolations: (window as any).cspViolations,
        globals: Object.getOwnPropertyNames(window).filter(
          (key) => !(window as any).globalsBefore.includes(key) && key !== "globalsBefore",
        ),
      };
    });
    expect(facts).toEqual({
      hosts: 1,
      parent: "HTML",
      inBody: false,
      frozen: true,
      state: { mode: "browse", pins: 0, shown: 0, visible: true },
      cspViolations: [],
      globals: ["__redlineOverlay"],
    });
    await view.page.context().close();
  });
});

describe("comment mode", () => {
  it("outlines the element under the pointer, in the shadow root", async () => {
    const view = await harness.open("pricing");
    await view.waitFor("overlay:ready");
    await view.send("overlay:mode", { mode: "comment" });
    const box = await view.rect("#basic-text");
    const point = await view.toPage({ x: box.x + 10, y: box.y + box.height / 2 });
    await view.page.mouse.move(point.x, point.y);
    await view.settle();
    const outline = await highlight(view);
    expect(outline).not.toBeNull();
    for (const key of ["x", "y", "width", "height"] as const) expect(outline![key]).toBeCloseTo(box[key], 0);
    await view.send("overlay:mode", { mode: "browse" });
    await view.settle();
    expect(await highlight(view)).toBeNull();
    await view.page.context().close();
  });

  it("posts pick:element for a click and keeps it from the page", async () => {
    const view = await harness.open("pricing");
    await view.waitFor("overlay:ready");
    await view.send("overlay:mode", { mode: "comment" });
    const since = await view.mark();
    await clickAt(view, "#cta", { x: 0.25, y: 0.75 });
    const pick = await view.waitFor("pick:element", since);
    const box = await view.rect("#cta");

    expect(pick.payload.dotPosition.x).toBeCloseTo(0.25, 1);
    expect(pick.payload.dotPosition.y).toBeCloseTo(0.75, 1);
    expect(pick.payload.anchor.dot).toEqual(pick.payload.dotPosition);
    expect(pick.payload.deviceWidth).toBe(1024);
    for (const key of ["x", "y", "width", "height"] as const)
      expect(pick.payload.rect[key]).toBeCloseTo(box[key], 1);
    const matches = await view.frame.evaluate(
      (selector) => document.querySelector(selector) === document.getElementById("cta"),
      pick.payload.anchor.querySelector,
    );
    expect(matches).toBe(true);

    // Neither the page's click listener nor the link's navigation ran.
    await view.page.waitForTimeout(300);
    expect(await view.frame.evaluate(() => (window as any).pageClicks)).toBe(0);
    expect(view.frame.url()).toContain("/v/pricing.html");

    // In browse mode the page gets its clicks again (so the check above means something).
    await view.send("overlay:mode", { mode: "browse" });
    await clickAt(view, "#counter", { x: 0.5, y: 0.5 });
    await view.frame.waitForFunction(() => (window as any).pageClicks === 1);
    expect((await view.messages("pick:element")).length).toBe(1);
    await view.page.context().close();
  });

  it("picks in inspect mode too, and a click on a pin selects it instead of picking", async () => {
    const view = await harness.open("pricing");
    await view.waitFor("overlay:ready");
    await view.send("overlay:mode", { mode: "inspect" });
    await clickAt(view, "#title", { x: 0.1, y: 0.5 });
    const pick = await view.waitFor("pick:element");
    expect(pick.payload.anchor.fingerprint.tag).toBe("h1");

    await view.send("pins:set", {
      pins: [
        {
          id: "p1",
          number: 1,
          anchor: pick.payload.anchor,
          dotPosition: pick.payload.dotPosition,
          isResolved: false,
          isSelected: false,
        },
      ],
    });
    await view.waitFor("pins:anchored");
    await view.settle();
    const since = await view.mark();
    const center = await view.frame.evaluate(() => {
      const pin = document
        .querySelector("redline-overlay")!
        .shadowRoot!.querySelector(".pin:not(.is-pending)")!;
      const { x, y, width, height } = pin.getBoundingClientRect();
      return { x: x + width / 2, y: y + height / 2 };
    });
    const point = await view.toPage(center);
    await view.page.mouse.click(point.x, point.y);
    const select = await view.waitFor("pin:select", since);
    expect(select.payload).toEqual({ id: "p1" });
    expect((await view.messages("pick:element")).length).toBe(1);
    await view.page.context().close();
  });
});
