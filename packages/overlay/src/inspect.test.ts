import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSPECT_PAGE } from "./testing/fixtures.ts";
import { type Harness, startHarness, type View } from "./testing/harness.ts";
import {
  clickOn,
  imageChange,
  openInspect,
  select,
  selectionBox,
  styleChange,
  textChange,
} from "./testing/inspect.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ inspect: INSPECT_PAGE });
});
afterAll(async () => {
  await harness?.close();
});

const IMAGE = `/a/${"ab".repeat(32)}.png`;

/** What a change can touch on the fixture's elements, read exactly. */
function snapshotOf(view: View) {
  return view.frame.evaluate(() => {
    const copy = document.getElementById("copy")!;
    const photo = document.getElementById("photo")!;
    return {
      copy: copy.outerHTML,
      copyStyle: copy.getAttribute("style"),
      box: document.getElementById("box")!.outerHTML,
      photoSrc: photo.getAttribute("src"),
      photoSrcset: photo.getAttribute("srcset"),
      sourceSrcset: document.querySelector("#pic source")!.getAttribute("srcset"),
    };
  });
}

describe("inspect mode: selecting", () => {
  it("selects a clicked element, reports its computed styles, and clears on Escape", async () => {
    const view = await openInspect(harness.open("inspect"));
    const selected = await select(view, "#copy");
    const box = await view.rect("#copy");
    const { payload } = selected;
    expect(payload.tag).toBe("p");
    expect(payload.isImage).toBe(false);
    expect(payload.hasText).toBe(true);
    expect(payload.text).toBe("Hello brave world");
    expect(payload.deviceWidth).toBe(1024);
    for (const key of ["x", "y", "width", "height"] as const)
      expect(payload.rect[key]).toBeCloseTo(box[key], 1);
    expect(payload.styles).toMatchObject({
      color: "rgb(0, 0, 255)",
      "font-size": "18px",
      "margin-top": "4px",
      "padding-top": "2px",
      "padding-right": "3px",
      "padding-bottom": "4px",
      "padding-left": "5px",
      "border-style": "solid",
      "border-color": "rgb(1, 2, 3)",
      "border-top-left-radius": "0px",
      opacity: "1",
      translate: "none",
    });
    expect(Object.keys(payload.styles)).toHaveLength(30);
    // The same anchor as the pick, which still goes out (comments in inspect mode).
    const pick = (await view.messages("pick:element")).at(-1)!;
    expect(pick.payload.anchor).toEqual(payload.anchor);

    await view.settle();
    const outline = await selectionBox(view);
    expect(outline).not.toBeNull();
    for (const key of ["x", "y", "width", "height"] as const) expect(outline![key]).toBeCloseTo(box[key], 0);

    const image = await select(view, "#photo");
    expect(image.payload).toMatchObject({ tag: "img", isImage: true, hasText: false });

    const since = await view.mark();
    await view.page.keyboard.press("Escape");
    await view.waitFor("inspect:cleared", since);
    await view.settle();
    expect(await selectionBox(view)).toBeNull();
    await view.page.context().close();
  });

  it("selects the element the app names, and lets a Cmd/Ctrl+click through to the page", async () => {
    const view = await openInspect(harness.open("inspect"));
    const { payload } = await select(view, "#plain");
    await view.send("inspect:select", null);
    await view.settle();
    expect(await selectionBox(view)).toBeNull();

    const since = await view.mark();
    await view.send("inspect:select", { anchor: payload.anchor });
    const again = await view.waitFor("inspect:selected", since);
    expect(again.payload.anchor).toEqual(payload.anchor);
    expect(again.payload.text).toBe("Plain text here");

    const clicks = await view.frame.evaluate(() => (window as any).pageClicks as number);
    const picks = (await view.messages("pick:element")).length;
    await view.page.keyboard.down("Control");
    await clickOn(view, "#summary");
    await view.page.keyboard.up("Control");
    await view.frame.waitForFunction(() => (document.getElementById("more") as HTMLDetailsElement).open);
    expect(await view.frame.evaluate(() => (window as any).pageClicks as number)).toBe(clicks + 1);
    expect((await view.messages("pick:element")).length).toBe(picks);
    await view.page.context().close();
  });
});

describe("inspect mode: applying changes", () => {
  it("applies styles, text and images, replaces the set, and restores the originals exactly", async () => {
    const view = await openInspect(harness.open("inspect"));
    const original = await snapshotOf(view);
    const photo = (await select(view, "#photo")).payload.anchor;
    const box = (await select(view, "#box")).payload.anchor;
    const copy = (await select(view, "#copy")).payload.anchor;
    await view.frame.evaluate(() => {
      (window as any).em = document.querySelector("#copy em");
    });

    let since = await view.mark();
    await view.send("inspect:apply", {
      changes: [
        styleChange(copy, "color", "rgb(255, 0, 0)"),
        styleChange(copy, "padding-top", "12px"),
        textChange(copy, {
          text: "New <b>text</b>\nline",
          marks: [
            { mark: "b", start: 0, end: 3 },
            { mark: "i", start: 2, end: 8 },
          ],
        }),
        styleChange(box, "background-color", "rgb(0, 128, 0)"),
        imageChange(photo, IMAGE),
      ],
    });
    const reselected = await view.waitFor("inspect:selected", since);
    expect(reselected.payload.styles.color).toBe("rgb(255, 0, 0)");
    expect(reselected.payload.styles["padding-top"]).toBe("12px");
    expect(reselected.payload.text).toBe("New <b>text</b>\nline");
    const applied = await view.frame.evaluate(() => {
      const copyElement = document.getElementById("copy")!;
      return {
        html: copyElement.innerHTML,
        color: copyElement.style.getPropertyValue("color"),
        priority: copyElement.style.getPropertyPriority("color"),
        box: getComputedStyle(document.getElementById("box")!).backgroundColor,
        src: (document.getElementById("photo") as HTMLImageElement).src,
        srcset: document.getElementById("photo")!.getAttribute("srcset"),
        source: document.querySelector("#pic source")!.getAttribute("srcset"),
      };
    });
    expect(applied).toEqual({
      html: "<b>Ne</b><b><i>w</i></b><i> &lt;b&gt;t</i>ext&lt;/b&gt;<br>line",
      color: "rgb(255, 0, 0)",
      priority: "important",
      box: "rgb(0, 128, 0)",
      src: `${harness.contentOrigin}${IMAGE}`,
      srcset: null,
      source: null,
    });

    // A new set: what is no longer there is undone (text, box, image), the rest stays or changes.
    since = await view.mark();
    await view.send("inspect:apply", { changes: [styleChange(copy, "color", "rgb(0, 0, 128)")] });
    await view.waitFor("inspect:selected", since);
    const replaced = await view.frame.evaluate(() => {
      const copyElement = document.getElementById("copy")!;
      return {
        style: copyElement.getAttribute("style"),
        sameEm: document.querySelector("#copy em") === (window as any).em,
        text: copyElement.textContent,
      };
    });
    expect(replaced).toEqual({
      style: "color: rgb(0, 0, 128) !important; margin-top: 4px;",
      sameEm: true,
      text: "Hello brave\n    world",
    });
    const partial = await snapshotOf(view);
    expect({ ...partial, copy: "", copyStyle: "" }).toEqual({ ...original, copy: "", copyStyle: "" });

    await view.send("inspect:apply", { changes: [] });
    await view.settle();
    expect(await snapshotOf(view)).toEqual(original);
    expect(await view.frame.evaluate(() => document.querySelector("#copy em") === (window as any).em)).toBe(
      true,
    );
    await view.page.context().close();
  });

  it("refuses image paths off the content origin and properties the panel does not offer", async () => {
    const view = await openInspect(harness.open("inspect"));
    const original = await snapshotOf(view);
    const photo = (await select(view, "#photo")).payload.anchor;
    const copy = (await select(view, "#copy")).payload.anchor;
    await view.send("inspect:apply", {
      changes: [
        imageChange(photo, "//evil.example/x.png"),
        imageChange(photo, "/\\evil.example/x.png"),
        styleChange(copy, "background-image", "url(/x.png)"),
      ],
    });
    await view.settle();
    expect(await snapshotOf(view)).toEqual(original);
    await view.page.context().close();
  });

  it("shows mobile changes at 740 px and below, over the default ones, following resizes", async () => {
    const view = await openInspect(harness.open("inspect"), "browse");
    await view.send("overlay:mode", { mode: "inspect" });
    const copy = (await select(view, "#copy")).payload.anchor;
    await view.send("overlay:mode", { mode: "browse" });
    const color = () => view.frame.evaluate(() => getComputedStyle(document.getElementById("copy")!).color);
    const resize = (width: number) =>
      view.page.evaluate((w) => {
        document.getElementById("snapshot")!.style.width = `${w}px`;
      }, width);

    await view.send("inspect:apply", {
      changes: [
        styleChange(copy, "color", "rgb(0, 0, 200)", "mobile"),
        styleChange(copy, "color", "rgb(200, 0, 0)"),
        styleChange(copy, "font-size", "30px", "mobile"),
      ],
    });
    await view.settle();
    expect(await color()).toBe("rgb(200, 0, 0)");
    await resize(740);
    await view.frame.waitForFunction(
      () => getComputedStyle(document.getElementById("copy")!).fontSize === "30px",
    );
    expect(await color()).toBe("rgb(0, 0, 200)");
    await resize(741);
    await view.frame.waitForFunction(
      () => getComputedStyle(document.getElementById("copy")!).fontSize === "18px",
    );
    expect(await color()).toBe("rgb(200, 0, 0)");
    await view.page.context().close();
  });
});

describe("inspect messages the overlay must ignore", () => {
  it("applies and selects only for its parent at the app origin", async () => {
    const view = await openInspect(harness.open("inspect"));
    const copy = (await select(view, "#copy")).payload.anchor;
    const original = await snapshotOf(view);
    const apply = {
      protocol: "redline/1",
      type: "inspect:apply",
      payload: { changes: [styleChange(copy, "color", "rgb(255, 0, 0)")] },
    };
    const since = await view.mark();
    await view.sendFromSibling(apply);
    await view.sendFromSibling({ protocol: "redline/1", type: "inspect:select", payload: null });
    await view.sendRaw({ ...apply, protocol: "redline/0" });
    await view.sendRaw({ ...apply, payload: { changes: [{ ...apply.payload.changes[0], value: 42 }] } });
    await view.settle();
    await view.page.waitForTimeout(200);
    expect(await snapshotOf(view)).toEqual(original);
    expect(await selectionBox(view)).not.toBeNull();
    expect(await view.messages()).toHaveLength(since);

    await view.sendRaw(apply);
    await view.frame.waitForFunction(
      () => getComputedStyle(document.getElementById("copy")!).color === "rgb(255, 0, 0)",
    );
    await view.page.context().close();
  });
});
