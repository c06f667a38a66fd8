import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRICING_PAGE } from "./testing/fixtures.ts";
import { type Harness, type Message, startHarness, type View } from "./testing/harness.ts";

let harness: Harness;
/** A team table before and after Alice left and Carol joined: a pin on Alice's button needs review. */
const team = (names: string[]) =>
  `<!doctype html><html><head><title>Team</title></head><body><h1>Team</h1><table><tbody>${names
    .map(
      (name) =>
        `<tr><td>${name}</td><td>${name.toLowerCase()}@example.com</td><td><button type="button">Remove</button></td></tr>`,
    )
    .join("")}</tbody></table></body></html>`;

beforeAll(async () => {
  harness = await startHarness({
    pricing: PRICING_PAGE,
    teamBefore: team(["Alice", "Bob"]),
    teamAfter: team(["Bob", "Carol"]),
  });
});
afterAll(async () => {
  await harness?.close();
});

interface DrawnPin {
  id: string;
  label: string | null;
  text: string;
  hidden: boolean;
  classes: string[];
  x: number;
  y: number;
}

function drawnPins(view: View): Promise<DrawnPin[]> {
  return view.frame.evaluate(() =>
    [
      ...document.querySelector("redline-overlay")!.shadowRoot!.querySelectorAll<HTMLElement>(".pins .pin"),
    ].map((pin) => {
      const box = pin.getBoundingClientRect();
      return {
        id: pin.dataset.id!,
        label: pin.getAttribute("aria-label"),
        text: pin.textContent ?? "",
        hidden: pin.hidden || box.width === 0,
        classes: [...pin.classList],
        x: box.x + box.width / 2,
        y: box.y + box.height / 2,
      };
    }),
  );
}

/** Where a pin on `selector` at `dot` must be drawn now (frame client coordinates). */
async function expected(view: View, selector: string, dot: { x: number; y: number }) {
  const box = await view.rect(selector);
  return { x: box.x + dot.x * box.width, y: box.y + dot.y * box.height };
}

async function pick(view: View, selector: string, fraction: { x: number; y: number }): Promise<Message> {
  const box = await view.rect(selector);
  const since = await view.mark();
  const point = await view.toPage({ x: box.x + box.width * fraction.x, y: box.y + box.height * fraction.y });
  await view.page.mouse.click(point.x, point.y);
  return view.waitFor("pick:element", since);
}

function expectAt(pin: DrawnPin | undefined, point: { x: number; y: number }) {
  expect(pin?.hidden).toBe(false);
  expect(Math.abs(pin!.x - point.x)).toBeLessThanOrEqual(1.5);
  expect(Math.abs(pin!.y - point.y)).toBeLessThanOrEqual(1.5);
}

/** A page with three pins: on #cta, on #deep (inside a scroller), and one on the document itself. */
async function withPins(): Promise<{ view: View; dots: Record<string, { x: number; y: number }> }> {
  const view = await harness.open("pricing");
  await view.waitFor("overlay:ready");
  await view.send("overlay:mode", { mode: "comment" });
  const cta = await pick(view, "#cta", { x: 0.8, y: 0.3 });
  const deep = await pick(view, "#deep", { x: 0.1, y: 0.5 });
  await view.send("overlay:mode", { mode: "browse" });
  const since = await view.mark();
  const pin = (id: string, number: number, from: Message | null, extra = {}) => ({
    id,
    number,
    anchor: from?.payload.anchor ?? null,
    dotPosition: from?.payload.dotPosition ?? { x: 0.5, y: 0.25 },
    isResolved: false,
    isSelected: false,
    ...extra,
  });
  await view.send("pins:set", {
    pins: [
      pin("a", 1, cta),
      pin("b", 2, deep, { isResolved: true }),
      pin("c", 3, null, { isSelected: true }),
    ],
  });
  const anchored = await view.waitFor("pins:anchored", since);
  expect(anchored.payload.results).toEqual([
    { id: "a", status: "exact", score: expect.any(Number) },
    { id: "b", status: "exact", score: expect.any(Number) },
  ]);
  await view.settle();
  return { view, dots: { a: cta.payload.dotPosition, b: deep.payload.dotPosition } };
}

async function expectAllInPlace(view: View, dots: Record<string, { x: number; y: number }>) {
  await view.settle();
  const pins = await drawnPins(view);
  expectAt(
    pins.find((pin) => pin.id === "a"),
    await expected(view, "#cta", dots.a!),
  );
  expectAt(
    pins.find((pin) => pin.id === "b"),
    await expected(view, "#deep", dots.b!),
  );
  const size = await view.frame.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight,
    scrollX,
    scrollY,
  }));
  expectAt(
    pins.find((pin) => pin.id === "c"),
    { x: 0.5 * size.width - size.scrollX, y: 0.25 * size.height - size.scrollY },
  );
}

describe("pins", () => {
  it("draws numbered buttons at element box + dot fraction", async () => {
    const { view, dots } = await withPins();
    const pins = await drawnPins(view);
    expect(pins.map(({ id, label, text, classes }) => ({ id, label, text, classes }))).toEqual([
      { id: "a", label: "Comment 1", text: "1", classes: ["pin"] },
      { id: "b", label: "Comment 2", text: "2", classes: ["pin", "is-resolved"] },
      { id: "c", label: "Comment 3", text: "3", classes: ["pin", "is-selected"] },
    ]);
    await expectAllInPlace(view, dots);
    const colours = await view.frame.evaluate(() =>
      [...document.querySelector("redline-overlay")!.shadowRoot!.querySelectorAll(".pins .pin")].map(
        (pin) => getComputedStyle(pin).backgroundColor,
      ),
    );
    expect(colours).toEqual(["rgb(229, 56, 59)", "rgb(141, 147, 156)", "rgb(229, 56, 59)"]);
    expect(await view.frame.evaluate(() => (window as any).__redlineOverlay.state())).toMatchObject({
      pins: 3,
      shown: 3,
    });
    await view.page.context().close();
  });

  it("on the document's edge do not make the document larger", async () => {
    const view = await harness.open("pricing");
    await view.waitFor("overlay:ready");
    // Measured once the frame has its final size (on a busy machine the first layout may still be narrow).
    await view.settle();
    const documentSize = () =>
      view.frame.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        height: document.documentElement.scrollHeight,
      }));
    const before = await documentSize();
    const since = await view.mark();
    const corner = { anchor: null, isResolved: false, isSelected: false };
    await view.send("pins:set", {
      pins: [
        { ...corner, id: "end", number: 1, dotPosition: { x: 1, y: 1 } },
        { ...corner, id: "side", number: 2, dotPosition: { x: 1, y: 0.01 } },
      ],
    });
    await view.settle();
    await view.settle();
    expect(await documentSize()).toEqual(before);
    expect(
      (await view.messages()).slice(since).filter((message) => message.type === "document:size"),
    ).toEqual([]);
    expect((await drawnPins(view)).map((pin) => pin.hidden)).toEqual([false, false]);
    await view.page.context().close();
  });

  it("follow their elements when the page or an inner scroller scrolls", async () => {
    const { view, dots } = await withPins();
    const since = await view.mark();
    await view.frame.evaluate(() => window.scrollTo(0, 333));
    const scroll = await view.waitFor("document:scroll", since);
    expect(scroll.payload).toEqual({ x: 0, y: 333 });
    await expectAllInPlace(view, dots);
    await view.frame.evaluate(() => {
      document.getElementById("scroller")!.scrollTop = 120;
    });
    await expectAllInPlace(view, dots);
    await view.page.context().close();
  });

  it("follow their elements when the frame becomes a phone", async () => {
    const { view, dots } = await withPins();
    const before = await view.rect("#cta");
    const since = await view.mark();
    await view.page.evaluate(() => {
      document.getElementById("snapshot")!.style.width = "375px";
    });
    const size = await view.waitFor("document:size", since);
    expect(size.payload.width).toBeLessThanOrEqual(375);
    const after = await view.rect("#cta");
    expect(after.y).toBeGreaterThan(before.y + 100); // the layout really changed
    await expectAllInPlace(view, dots);
    await view.page.context().close();
  });

  it("are re-placed when the page's layout shifts (fonts, images, late styles)", async () => {
    const { view, dots } = await withPins();
    await view.frame.evaluate(() => {
      document.querySelector("header")!.style.height = "400px";
    });
    await expectAllInPlace(view, dots);
    await view.page.context().close();
  });

  it("select, focus, hide, and report orphans", async () => {
    const { view } = await withPins();
    let since = await view.mark();
    // Keyboard: pins are buttons.
    await view.frame.evaluate(() => {
      document
        .querySelector("redline-overlay")!
        .shadowRoot!.querySelector<HTMLElement>('[data-id="a"]')!
        .focus();
    });
    await view.page.keyboard.press("Enter");
    expect((await view.waitFor("pin:select", since)).payload).toEqual({ id: "a" });

    await view.frame.evaluate(() => {
      window.scrollTo(0, 1500);
      document.getElementById("scroller")!.scrollTop = 500;
    });
    await view.send("pin:focus", { id: "b" });
    await view.frame.waitForFunction(
      () => {
        const deep = document.getElementById("deep")!.getBoundingClientRect();
        const scroller = document.getElementById("scroller")!.getBoundingClientRect();
        return deep.top >= Math.max(0, scroller.top) && deep.bottom <= Math.min(innerHeight, scroller.bottom);
      },
      undefined,
      { timeout: 5000 },
    );
    expect((await drawnPins(view)).find((pin) => pin.id === "b")?.classes).toContain("is-focused");

    await view.send("pins:visible", { visible: false });
    await view.settle();
    expect((await drawnPins(view)).every((pin) => pin.hidden)).toBe(true);
    await view.send("pins:visible", { visible: true });

    since = await view.mark();
    const [a] = (await view.messages("pick:element")).map((message) => message.payload);
    const gone = {
      ...a.anchor,
      querySelector: "#nope",
      selectors: { css: "#nope", xpath: "/nope", idPath: null },
    };
    gone.fingerprint = {
      ...gone.fingerprint,
      tag: "video",
      text: "nothing like it",
      id: "nope",
      classes: [],
    };
    await view.send("pins:set", {
      pins: [
        {
          id: "x",
          number: 7,
          anchor: gone,
          dotPosition: a.dotPosition,
          isResolved: false,
          isSelected: false,
        },
      ],
    });
    const anchored = await view.waitFor("pins:anchored", since);
    expect(anchored.payload.results).toEqual([{ id: "x", status: "orphaned", score: 0 }]);
    await view.settle();
    expect(await drawnPins(view)).toMatchObject([{ id: "x", hidden: true }]);
    await view.page.context().close();
  });

  it("offers the candidates of a pin that needs review, and describes the one chosen", async () => {
    const before = await harness.open("teamBefore");
    await before.waitFor("overlay:ready");
    await before.send("overlay:mode", { mode: "comment" });
    const picked = await pick(before, "tr:nth-child(1) button", { x: 0.25, y: 0.5 });
    await before.page.context().close();

    const view = await harness.open("teamAfter");
    await view.waitFor("overlay:ready");
    const show = async (anchor: unknown) => {
      const since = await view.mark();
      await view.send("pins:set", {
        pins: [
          {
            id: "r",
            number: 1,
            anchor,
            dotPosition: picked.payload.dotPosition,
            isResolved: false,
            isSelected: false,
          },
        ],
      });
      return (await view.waitFor("pins:anchored", since)).payload.results;
    };
    expect(await show(picked.payload.anchor)).toEqual([
      { id: "r", status: "needs-review", score: expect.any(Number), candidates: 2 },
    ]);
    await view.settle();
    const dot = picked.payload.dotPosition;
    expectAt((await drawnPins(view))[0], await expected(view, "tr:nth-child(1) button", dot)); // Bob's

    let since = await view.mark();
    await view.send("pin:candidate", { id: "r", index: 1 });
    const chosen = (await view.waitFor("pin:candidate", since)).payload;
    expect(chosen).toMatchObject({ id: "r", index: 1, dotPosition: dot });
    await view.settle();
    expectAt((await drawnPins(view))[0], await expected(view, "tr:nth-child(2) button", dot)); // Carol's

    // What "Keep here" saves finds Carol's button for certain.
    expect(await show(chosen.anchor)).toEqual([{ id: "r", status: "exact", score: expect.any(Number) }]);
    await view.settle();
    expectAt((await drawnPins(view))[0], await expected(view, "tr:nth-child(2) button", dot));

    // No such candidate: nothing moves, nothing is described.
    since = await view.mark();
    await view.send("pin:candidate", { id: "r", index: 3 });
    await view.settle();
    expect(await view.messages("pin:candidate")).toHaveLength(1);
    await view.page.context().close();
  });

  it("shows the pending pin of the comment being written", async () => {
    const view = await harness.open("pricing");
    await view.waitFor("overlay:ready");
    await view.send("overlay:mode", { mode: "comment" });
    const picked = await pick(view, "#title", { x: 0.3, y: 0.6 });
    await view.send("pending:set", {
      anchor: picked.payload.anchor,
      dotPosition: picked.payload.dotPosition,
    });
    await view.settle();
    const pending = () =>
      view.frame.evaluate(() => {
        const pin = document
          .querySelector("redline-overlay")!
          .shadowRoot!.querySelector<HTMLElement>(".is-pending");
        if (!pin || pin.hidden) return null;
        const box = pin.getBoundingClientRect();
        return {
          x: box.x + box.width / 2,
          y: box.y + box.height / 2,
          ariaHidden: pin.getAttribute("aria-hidden"),
        };
      });
    const drawn = await pending();
    const point = await expected(view, "#title", picked.payload.dotPosition);
    expect(drawn?.ariaHidden).toBe("true");
    expect(Math.abs(drawn!.x - point.x)).toBeLessThanOrEqual(1.5);
    expect(Math.abs(drawn!.y - point.y)).toBeLessThanOrEqual(1.5);
    await view.send("pending:set", null);
    await view.settle();
    expect(await pending()).toBeNull();
    await view.page.context().close();
  });
});
