import { MOBILE_DEVICE_MAX_WIDTH, STYLE_PROPERTY_NAMES } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { MOBILE_MAX_WIDTH, STYLE_PROPERTIES } from "./style-properties.ts";

describe("the overlay's copy of the inspect rules", () => {
  it("lists the same style properties and breakpoint as @redline/shared", () => {
    expect([...STYLE_PROPERTIES]).toEqual([...STYLE_PROPERTY_NAMES]);
    expect(MOBILE_MAX_WIDTH).toBe(MOBILE_DEVICE_MAX_WIDTH);
  });
});
