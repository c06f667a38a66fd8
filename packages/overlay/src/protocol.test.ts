import {
  FRAME_PROTOCOL,
  frameMessage,
  type OverlayToParent,
  parseOverlayToParent,
  parseParentToOverlay,
} from "@redline/shared";
import { describe, expect, it } from "vitest";

const anchor = {
  v: 1,
  querySelector: "#cta",
  selectors: { css: "#cta", xpath: "/html/body/a", idPath: "#cta" },
  fingerprint: { tag: "a", text: "choose basic" },
  dot: { x: 0.25, y: 0.75 },
};

describe("frame protocol", () => {
  it("wraps payloads in a tagged envelope", () => {
    expect(frameMessage<OverlayToParent, "pin:select">("pin:select", { id: "a" })).toEqual({
      protocol: FRAME_PROTOCOL,
      type: "pin:select",
      payload: { id: "a" },
    });
  });

  it("accepts well-formed messages of its own direction only", () => {
    const mode = { protocol: "redline/1", type: "overlay:mode", payload: { mode: "comment" } };
    expect(parseParentToOverlay(mode)).toEqual(mode);
    expect(parseOverlayToParent(mode)).toBeNull();
    expect(
      parseParentToOverlay({ protocol: "redline/1", type: "pending:set", payload: null }),
    ).not.toBeNull();
    const pick = {
      protocol: "redline/1",
      type: "pick:element",
      payload: {
        anchor,
        dotPosition: { x: 0.25, y: 0.75 },
        rect: { x: 1, y: 2, width: 3, height: 4 },
        deviceWidth: 375,
      },
    };
    expect(parseOverlayToParent(pick)).toEqual(pick);
  });

  it.each([
    ["no envelope", { type: "overlay:mode", payload: { mode: "comment" } }],
    ["another protocol", { protocol: "redline/2", type: "overlay:mode", payload: { mode: "comment" } }],
    ["an unknown type", { protocol: "redline/1", type: "overlay:explode", payload: {} }],
    ["an inherited key", { protocol: "redline/1", type: "toString", payload: {} }],
    ["a bad payload", { protocol: "redline/1", type: "overlay:mode", payload: { mode: "edit" } }],
    ["a non-finite number", { protocol: "redline/1", type: "pin:focus", payload: { id: 1 } }],
    [
      "an oversized anchor",
      {
        protocol: "redline/1",
        type: "pending:set",
        payload: {
          anchor: { ...anchor, fingerprint: { text: "x".repeat(20_000) } },
          dotPosition: { x: 0, y: 0 },
        },
      },
    ],
    [
      "a dot outside the box",
      { protocol: "redline/1", type: "pending:set", payload: { anchor, dotPosition: { x: 1.5, y: 0 } } },
    ],
    [
      "a string",
      JSON.stringify({ protocol: "redline/1", type: "overlay:mode", payload: { mode: "comment" } }),
    ],
    ["null", null],
  ])("rejects %s", (_name, data) => {
    expect(parseParentToOverlay(data)).toBeNull();
  });
});
