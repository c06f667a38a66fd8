import { describe, expect, it } from "vitest";
import {
  afterDeleting,
  arrowMove,
  type Deck,
  deckSchema,
  fittedImageSize,
  neighbourDistances,
  orderedSlides,
  pastedAt,
  positionForMove,
  type Slide,
} from "./slides.ts";

const slide = (id: string, position: number): Slide => ({
  id,
  position,
  createdAt: 1,
  notes: "",
  objects: {},
});
const text = {
  id: "t1",
  kind: "text",
  text: "Hi",
  x: 0,
  y: 0,
  width: 100,
  height: 30,
  rotation: 0,
  z: 1,
  fontFamily: "Inter",
  fontSize: 28,
  fontWeight: 700,
  italic: true,
  underline: false,
  fill: "#112233",
  align: "left",
} as const;

describe("the deck's rules", () => {
  it("orders slides by position, and a move changes only the moved slide's position", () => {
    const order = orderedSlides({ b: slide("b", 2), a: slide("a", 1), c: slide("c", 3) });
    expect(order.map((s) => s.id)).toEqual(["a", "b", "c"]);
    const moved = { ...order[2]!, position: positionForMove(order, "c", 0) };
    expect(orderedSlides({ a: order[0]!, b: order[1]!, c: moved }).map((s) => s.id)).toEqual(["c", "a", "b"]);
    const between = positionForMove(order, "a", 1);
    expect(between).toBeGreaterThan(2);
    expect(between).toBeLessThan(3);
  });

  it("deleting the current slide shows the previous one, the first if it was first; the last one is reset", () => {
    const order = [slide("a", 1), slide("b", 2), slide("c", 3)];
    expect(afterDeleting(order, "b")).toEqual({ next: "a", reset: false });
    expect(afterDeleting(order, "a")).toEqual({ next: "b", reset: false });
    expect(afterDeleting([slide("a", 1)], "a")).toEqual({ next: "a", reset: true });
  });

  it("moves by 1 px, 10 px with Shift, and pastes at +50 px left, +20 px top", () => {
    expect(arrowMove("ArrowLeft", false)).toEqual({ dx: -1, dy: 0 });
    expect(arrowMove("ArrowDown", true)).toEqual({ dx: 0, dy: 10 });
    expect(arrowMove("a", true)).toBeNull();
    expect(pastedAt(null)).toEqual({ x: 50, y: 20 });
    expect(pastedAt({ x: 100, y: 100 })).toEqual({ x: 150, y: 120 });
  });

  it("fits an image inside the slide keeping its ratio", () => {
    expect(fittedImageSize(200, 100)).toEqual({ width: 200, height: 100 });
    expect(fittedImageSize(4000, 2000)).toEqual({ width: 600, height: 300 });
  });

  it("measures the distances to the nearest neighbour on each side, or to the slide's edge", () => {
    const box = { x: 100, y: 100, width: 100, height: 100 };
    const distances = neighbourDistances(box, [
      { x: 0, y: 120, width: 40, height: 20 },
      { x: 260, y: 150, width: 10, height: 10 },
      { x: 120, y: 500, width: 10, height: 10 },
    ]);
    expect(distances).toEqual({ left: 60, right: 60, top: 100, bottom: 300 });
  });

  it("accepts a valid deck and refuses what SPEC does not have", () => {
    const valid: Deck = { s1: { ...slide("s1", 1), objects: { t1: text } } };
    expect(deckSchema.safeParse(valid).success).toBe(true);
    const bad = [
      { s1: { ...slide("s1", 1), objects: { t1: { ...text, fontWeight: 450 } } } },
      { s1: { ...slide("s1", 1), objects: { t1: { ...text, fill: "red" } } } },
      { s1: { ...slide("s1", 1), objects: { other: text } } },
      { s2: slide("s1", 1) },
      { s1: { ...slide("s1", 1), extra: true } },
      {
        s1: {
          ...slide("s1", 1),
          objects: { i1: { ...text, kind: "image", src: "https://evil.example/x.png" } },
        },
      },
    ];
    for (const deck of bad) expect(deckSchema.safeParse(deck).success, JSON.stringify(deck)).toBe(false);
  });
});
