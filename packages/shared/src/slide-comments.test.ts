import { describe, expect, it } from "vitest";
import { commentsPerSlide, slideDotOf, slidePinPoint } from "./slide-comments.ts";

describe("slide comment pins", () => {
  const image = { x: 100, y: 50, width: 200, height: 100, rotation: 0 };

  it("places a point's pin on the slide and an object's on the object, wherever it now is", () => {
    expect(slidePinPoint({ dotPosition: { x: 0.5, y: 0.25 }, objectId: null }, undefined)).toEqual({
      x: 500,
      y: 175,
    });
    const slide = { objects: { img: { ...image, id: "img", kind: "text" } } } as never;
    expect(slidePinPoint({ dotPosition: { x: 0.5, y: 0.5 }, objectId: "img" }, slide)).toEqual({
      x: 200,
      y: 100,
    });
    expect(slidePinPoint({ dotPosition: { x: 0.5, y: 0.5 }, objectId: "gone" }, slide)).toBeNull();
  });

  it("turns a point back into a dot on a rotated object, and counts comments per slide", () => {
    const turned = { ...image, rotation: 90 };
    const dot = slideDotOf({ x: 75, y: 150 }, turned);
    expect(dot.x).toBeCloseTo(0.5);
    expect(dot.y).toBeCloseTo(0.25);
    const slide = { objects: { img: { ...turned, id: "img" } } } as never;
    const back = slidePinPoint({ dotPosition: dot, objectId: "img" }, slide)!;
    expect(back.x).toBeCloseTo(75);
    expect(back.y).toBeCloseTo(150);
    expect(slideDotOf({ x: 2000, y: -5 }, null)).toEqual({ x: 1, y: 0 });
    expect(
      commentsPerSlide([{ slideId: "a" }, { slideId: "a" }, { slideId: "b" }, { slideId: null }]),
    ).toEqual({
      a: 2,
      b: 1,
    });
  });
});
