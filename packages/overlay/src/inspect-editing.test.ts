import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOVE_SETTLE_MS } from "./inspector.ts";
import { INSPECT_PAGE } from "./testing/fixtures.ts";
import { type Harness, startHarness, type View } from "./testing/harness.ts";
import { clickOn, openInspect, select, selectionBox, textChange } from "./testing/inspect.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ inspect: INSPECT_PAGE });
});
afterAll(async () => {
  await harness?.close();
});

const html = (view: View, selector: string) =>
  view.frame.$eval(selector, (element) => ({
    html: element.innerHTML,
    editable: element.getAttribute("contenteditable"),
  }));

describe("inspect mode: editing text in place", () => {
  it("edits with Enter, marks bold with Ctrl+B, and reports rich text when it ends", async () => {
    const view = await openInspect(harness.open("inspect"));
    const { payload } = await select(view, "#plain");
    const keyboard = view.page.keyboard;
    await keyboard.press("Enter");
    await view.settle();
    expect((await selectionBox(view))?.isEditing).toBe(true);
    expect((await html(view, "#plain")).editable).toBe("true");

    // Enter selected all of it: typing replaces it; then "words" is selected and made bold.
    await keyboard.type("New words");
    for (let i = 0; i < 5; i++) await keyboard.press("Shift+ArrowLeft");
    await keyboard.press("Control+b");
    const since = await view.mark();
    await keyboard.press("Escape");
    const text = await view.waitFor("inspect:text", since);
    expect(text.payload).toEqual({
      anchor: payload.anchor,
      deviceWidth: 1024,
      before: "Plain text here",
      after: { text: "New words", marks: [{ mark: "b", start: 4, end: 9 }] },
    });
    expect(await html(view, "#plain")).toEqual({ html: "New <b>words</b>", editable: null });

    // The app answers with the change; dropping it later brings back the original nodes.
    await view.send("inspect:apply", { changes: [textChange(payload.anchor, text.payload.after)] });
    await view.settle();
    expect((await html(view, "#plain")).html).toBe("New <b>words</b>");
    await view.send("inspect:apply", { changes: [] });
    await view.settle();
    expect((await html(view, "#plain")).html).toBe("Plain text here");
    await view.page.context().close();
  });

  it("edits on double click, keeps line breaks and nested marks, and says nothing when unchanged", async () => {
    const view = await openInspect(harness.open("inspect"));
    const originalHtml = (await html(view, "#copy")).html;
    await select(view, "#copy");
    const box = await view.rect("#copy");
    const point = await view.toPage({ x: box.x + 12, y: box.y + box.height / 2 });
    await view.page.mouse.dblclick(point.x, point.y);
    await view.settle();
    expect((await selectionBox(view))?.isEditing).toBe(true);
    let since = await view.mark();
    await view.page.keyboard.press("Escape");
    await view.settle();
    await view.page.waitForTimeout(100);
    expect(await view.messages("inspect:text")).toHaveLength(0);
    expect(await view.messages()).toHaveLength(since);
    expect(await html(view, "#copy")).toEqual({ html: originalHtml, editable: null });

    // Again, now with a new line and underline: the em stays italic.
    await view.page.keyboard.press("Enter");
    await view.page.keyboard.press("Control+End");
    await view.page.keyboard.press("Enter");
    await view.page.keyboard.type("more");
    await view.page.keyboard.press("Shift+Home");
    await view.page.keyboard.press("Control+u");
    since = await view.mark();
    // Clicking elsewhere ends the edit (and selects the other element).
    await clickOn(view, "#box");
    const text = await view.waitFor("inspect:text", since);
    expect(text.payload.before).toBe("Hello brave world");
    expect(text.payload.after).toEqual({
      text: "Hello brave world\nmore",
      marks: [
        { mark: "i", start: 6, end: 11 },
        { mark: "u", start: 18, end: 22 },
      ],
    });
    await view.page.context().close();
  });
});

describe("inspect mode: moving and shortcuts", () => {
  it("moves the selection 10 px with Shift+arrow, live, and reports the total offset after a pause", async () => {
    const view = await openInspect(harness.open("inspect"));
    const { payload } = await select(view, "#box");
    const before = await view.rect("#box");
    const since = await view.mark();
    // Times in the parent page: the move is reported once the keys have paused (MOVE_SETTLE_MS), not at
    // each press; measured, not raced, so a loaded machine cannot fail it.
    const now = () => view.page.evaluate(() => performance.now());
    const arrivals = () => view.page.evaluate(() => (window as any).receivedAt as number[]);
    const pressed = await now();
    await view.page.keyboard.press("Shift+ArrowRight");
    await view.settle();
    expect((await view.rect("#box")).x).toBeCloseTo(before.x + 10, 1);
    const move = await view.waitFor("inspect:move", since);
    expect(move.payload).toEqual({ anchor: payload.anchor, deviceWidth: 1024, translate: { x: 10, y: 0 } });
    const all = await view.messages();
    const moveAt = (await arrivals())[all.findIndex((message) => message.type === "inspect:move")]!;
    expect(moveAt - pressed).toBeGreaterThanOrEqual(MOVE_SETTLE_MS);

    // The next moves start from there: two 1 px steps down, reported together when within the pause.
    const first = await now();
    await view.page.keyboard.press("ArrowDown");
    await view.page.keyboard.press("ArrowDown");
    const last = await now();
    await expect
      .poll(async () => (await view.messages("inspect:move")).at(-1)?.payload.translate)
      .toEqual({ x: 10, y: 2 });
    if (last - first < MOVE_SETTLE_MS) expect(await view.messages("inspect:move")).toHaveLength(2);
    expect(await view.frame.evaluate(() => window.scrollY)).toBe(0);
    await view.page.context().close();
  });

  it("sends Cmd/Ctrl+Z and Cmd/Ctrl+J to the app", async () => {
    const view = await openInspect(harness.open("inspect"));
    await select(view, "#box");
    let since = await view.mark();
    await view.page.keyboard.press("Control+z");
    expect((await view.waitFor("inspect:shortcut", since)).payload).toEqual({ action: "undo" });
    since = await view.mark();
    await view.page.keyboard.press("Control+j");
    expect((await view.waitFor("inspect:shortcut", since)).payload).toEqual({ action: "toggle-edit" });

    // While editing text, Ctrl+Z is the browser's undo.
    await select(view, "#plain");
    await view.page.keyboard.press("Enter");
    await view.page.keyboard.type("x");
    since = await view.mark();
    await view.page.keyboard.press("Control+z");
    await view.page.waitForTimeout(100);
    expect((await view.messages()).slice(since).map((message) => message.type)).not.toContain(
      "inspect:shortcut",
    );
    await view.page.context().close();
  });

  it("shows the distances to the hovered element while Ctrl is held", async () => {
    const view = await openInspect(harness.open("inspect"));
    await select(view, "#box");
    const other = await view.rect("#other");
    const point = await view.toPage({ x: other.x + 10, y: other.y + 10 });
    await view.page.keyboard.down("Control");
    await view.page.mouse.move(point.x, point.y);
    await view.page.mouse.move(point.x + 2, point.y + 2);
    await view.settle();
    const labels = () =>
      view.frame.evaluate(() => {
        const layer = document
          .querySelector("redline-overlay")!
          .shadowRoot!.querySelector<HTMLElement>(".distances")!;
        return layer.hidden
          ? []
          : [...layer.querySelectorAll(".distance-label")].map((label) => label.textContent);
      });
    // #box: 24..224 × 24..124; #other: 324..424 × 154..204.
    expect((await labels()).sort()).toEqual(["100", "30"]);
    await view.page.keyboard.up("Control");
    await view.settle();
    expect(await labels()).toEqual([]);
    await view.page.context().close();
  });
});
