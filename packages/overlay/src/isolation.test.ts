import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTILE_PAGE, PRICING_PAGE } from "./testing/fixtures.ts";
import { type Harness, startHarness, type View } from "./testing/harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ pricing: PRICING_PAGE, hostile: HOSTILE_PAGE, clobbering: CLOBBERING_PAGE });
});
afterAll(async () => {
  await harness?.close();
});

const state = (view: View) => view.frame.evaluate(() => (window as any).__redlineOverlay.state());
const documentPin = (id: string, number: number) => ({
  id,
  number,
  anchor: null,
  dotPosition: { x: 0.5, y: 0.1 },
  isResolved: false,
  isSelected: false,
});

describe("messages the overlay must ignore", () => {
  it("drops other sources and malformed messages, then still obeys its parent", async () => {
    const view = await harness.open("pricing");
    await view.waitFor("overlay:ready");
    const valid = { protocol: "redline/1", type: "overlay:mode", payload: { mode: "comment" } };

    await view.sendFromSibling(valid); // right origin, wrong window
    for (const data of [
      { ...valid, protocol: "redline/0" },
      { ...valid, type: "overlay:unknown" },
      { ...valid, type: "constructor" },
      { ...valid, type: "__proto__" },
      { ...valid, payload: { mode: "everything" } },
      { ...valid, payload: null },
      {
        protocol: "redline/1",
        type: "pins:set",
        payload: { pins: [{ ...documentPin("a", 1), number: "1" }] },
      },
      {
        protocol: "redline/1",
        type: "pins:set",
        payload: { pins: [{ ...documentPin("a", 1), anchor: { v: 2 } }] },
      },
      JSON.stringify(valid),
      null,
      42,
    ]) {
      await view.sendRaw(data);
    }
    await view.settle();
    await view.page.waitForTimeout(200);
    expect(await state(view)).toMatchObject({ mode: "browse", pins: 0 });
    expect(await view.messages("pins:anchored")).toEqual([]);

    await view.sendRaw(valid);
    await view.frame.waitForFunction(() => (window as any).__redlineOverlay.state().mode === "comment");
    await view.page.context().close();
  });

  it("listens to nobody when the parent is not at the app origin it was given", async () => {
    const view = await harness.open("pricing", { appOriginAttribute: "http://127.0.0.1:9" });
    await view.frame.waitForFunction(() => "__redlineOverlay" in window);
    expect(await view.frame.evaluate(() => (window as any).__redlineOverlay.appOrigin)).toBe(
      "http://127.0.0.1:9",
    );
    await view.send("overlay:mode", { mode: "comment" });
    await view.send("pins:set", { pins: [documentPin("a", 1)] });
    await view.settle();
    await view.page.waitForTimeout(200);
    expect(await state(view)).toMatchObject({ mode: "browse", pins: 0 });
    // Its own messages were addressed to the other origin: the browser never delivered them.
    expect(await view.messages()).toEqual([]);
    await view.page.context().close();
  });
});

/** Named access: each of these makes `document.<name>` the element, not the method or property. */
const CLOBBERING_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Clobbering</title></head>
<body>
  <img name="createElement"><img name="elementFromPoint"><form name="body"></form><form name="documentElement"></form>
  <img name="addEventListener"><img name="readyState"><img name="scrollingElement"><img name="fonts">
  <p id="target">A paragraph to comment on.</p>
</body></html>`;

describe("a page that shadows document properties", () => {
  it("still gets a working overlay: it starts, draws pins and picks elements", async () => {
    const view = await harness.open("clobbering");
    expect(await view.frame.evaluate(() => typeof document.createElement)).toBe("object"); // shadowed indeed
    await view.waitFor("overlay:ready");
    await view.send("pins:set", { pins: [documentPin("a", 1)] });
    await view.send("overlay:mode", { mode: "comment" });
    await view.settle();
    const pins = await view.frame.evaluate(
      () => document.querySelector("redline-overlay")?.shadowRoot?.querySelectorAll("button").length ?? 0,
    );
    expect(pins).toBeGreaterThan(0);
    const since = await view.mark();
    const box = await view.rect("#target");
    const point = await view.toPage({ x: box.x + 10, y: box.y + box.height / 2 });
    await view.page.mouse.click(point.x, point.y);
    expect((await view.waitFor("pick:element", since)).type).toBe("pick:element");
  });
});

describe("the page's CSS and ours stay apart", () => {
  it("hostile page rules do not reach the overlay UI", async () => {
    const view = await harness.open("hostile");
    await view.waitFor("overlay:ready");
    await view.send("pins:set", { pins: [documentPin("a", 1)] });
    await view.send("overlay:mode", { mode: "comment" });
    await view.settle();

    const host = await view.frame.evaluate(() => {
      const style = getComputedStyle(document.querySelector("redline-overlay")!);
      return {
        display: style.display,
        visibility: style.visibility,
        opacity: style.opacity,
        position: style.position,
        transform: style.transform,
        filter: style.filter,
        clipPath: style.clipPath,
        zIndex: style.zIndex,
        before: getComputedStyle(document.querySelector("redline-overlay")!, "::before").content,
      };
    });
    expect(host).toEqual({
      display: "block",
      visibility: "visible",
      opacity: "1",
      position: "absolute",
      transform: "none",
      filter: "none",
      clipPath: "none",
      zIndex: "2147483647",
      before: "none",
    });

    const pin = await view.frame.evaluate(() => {
      const element = document
        .querySelector("redline-overlay")!
        .shadowRoot!.querySelector<HTMLElement>(".pins .pin")!;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      return {
        width: box.width,
        height: box.height,
        background: style.backgroundColor,
        color: style.color,
        fontSize: style.fontSize,
        fontStyle: style.fontStyle,
        radius: style.borderRadius,
        margin: style.marginTop,
        center: { x: box.x + box.width / 2, y: box.y + box.height / 2 },
        scroll: {
          width: document.documentElement.scrollWidth,
          height: document.documentElement.scrollHeight,
        },
      };
    });
    expect(pin).toMatchObject({
      width: 24,
      height: 24,
      background: "rgb(229, 56, 59)",
      color: "rgb(255, 255, 255)",
      fontSize: "11px",
      fontStyle: "normal",
      radius: "50%",
      margin: "-12px",
    });
    expect(pin.center.x).toBeCloseTo(pin.scroll.width * 0.5, 0);
    expect(pin.center.y).toBeCloseTo(pin.scroll.height * 0.1, 0);

    // The pin can be hit, and the outline still shows over a page element.
    const since = await view.mark();
    const click = await view.toPage(pin.center);
    await view.page.mouse.click(click.x, click.y);
    expect((await view.waitFor("pin:select", since)).payload).toEqual({ id: "a" });
    const target = await view.rect("#target");
    const hover = await view.toPage({ x: target.x + 20, y: target.y + target.height / 2 });
    await view.page.mouse.move(hover.x, hover.y);
    await view.settle();
    const outline = await view.frame.evaluate(() => {
      const element = document
        .querySelector("redline-overlay")!
        .shadowRoot!.querySelector<HTMLElement>(".highlight")!;
      const box = element.getBoundingClientRect();
      return { hidden: element.hidden, width: box.width, border: getComputedStyle(element).borderTopColor };
    });
    expect(outline).toEqual({ hidden: false, width: target.width, border: "rgb(229, 56, 59)" });
    await view.page.context().close();
  });

  it("our styles do not reach the page", async () => {
    const view = await harness.open("pricing");
    await view.waitFor("overlay:ready");
    await view.send("pins:set", { pins: [documentPin("a", 1)] });
    await view.settle();
    const pagePin = await view.frame.evaluate(() => {
      const style = getComputedStyle(document.getElementById("page-pin")!);
      return { width: style.width, background: style.backgroundColor, radius: style.borderRadius };
    });
    expect(pagePin).toEqual({ width: "100px", background: "rgb(0, 128, 0)", radius: "0px" });
    expect(await view.frame.evaluate(() => document.styleSheets.length)).toBe(1);
    expect(await view.frame.evaluate(() => document.adoptedStyleSheets.length)).toBe(0);
    await view.page.context().close();
  });
});
