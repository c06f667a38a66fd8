import { describe, expect, it } from "vitest";
import { TOUR_ILLUSTRATIONS, TOUR_TITLES } from "./tour-illustrations.tsx";
import { TOUR_HINTS, TOUR_SLIDES } from "./tour-slides.ts";

describe("the feature tour (SPEC §1)", () => {
  it("has the last seven of the seventeen hints, in order, each with a title and a picture", () => {
    expect(TOUR_HINTS).toHaveLength(17);
    expect(TOUR_SLIDES).toEqual(TOUR_HINTS.slice(10));
    expect(TOUR_SLIDES[0]).toBe("Share individual versions as external links.");
    expect(TOUR_SLIDES[6]).toBe("See new updates in What's New.");
    expect(TOUR_TITLES).toHaveLength(7);
    expect(TOUR_ILLUSTRATIONS).toHaveLength(7);
  });
});
