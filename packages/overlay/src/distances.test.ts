import { describe, expect, it } from "vitest";
import { type Box, measureDistances } from "./distances.ts";

const box = (left: number, top: number, width: number, height: number): Box => ({
  left,
  top,
  right: left + width,
  bottom: top + height,
});
const lengths = (selected: Box, hovered: Box) =>
  measureDistances(selected, hovered).map(({ x1, y1, x2, y2, length }) => ({ x1, y1, x2, y2, length }));

describe("distances between the selection and the hovered element", () => {
  it("measures the gap on each axis where two boxes are apart", () => {
    // Right of and below: one horizontal line at the middle of the selection, one vertical.
    expect(lengths(box(0, 0, 100, 50), box(150, 80, 40, 40))).toEqual([
      { x1: 100, y1: 25, x2: 150, y2: 25, length: 50 },
      { x1: 50, y1: 50, x2: 50, y2: 80, length: 30 },
    ]);
    // Side by side with overlapping rows: the line sits in the middle of the overlap.
    expect(lengths(box(200, 0, 50, 100), box(0, 50, 100, 100))).toEqual([
      { x1: 100, y1: 75, x2: 200, y2: 75, length: 100 },
    ]);
  });

  it("measures all four sides when one box holds the other", () => {
    const inner = box(10, 20, 50, 30);
    const outer = box(0, 0, 100, 100);
    const expected = [20, 40, 50, 10];
    expect(lengths(inner, outer).map((segment) => segment.length)).toEqual(expected);
    expect(lengths(outer, inner).map((segment) => segment.length)).toEqual(expected);
  });

  it("measures the edges' offsets when boxes overlap, and leaves out zero lengths", () => {
    expect(lengths(box(0, 0, 100, 100), box(50, 40, 100, 100)).map((segment) => segment.length)).toEqual([
      40, 50,
    ]);
    expect(lengths(box(0, 0, 100, 100), box(100, 0, 50, 100)).map((segment) => segment.length)).toEqual([]);
  });
});
