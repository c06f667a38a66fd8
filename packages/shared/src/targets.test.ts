import { describe, expect, it } from "vitest";
import {
  type AnchorData,
  legacyFromTarget,
  movedTarget,
  type Target,
  targetContentOf,
  targetFromInput,
  targetFromLegacy,
  targetMismatch,
  targetSchema,
} from "./index.ts";

const anchor: AnchorData = {
  v: 1,
  querySelector: "#hero > h1",
  selectors: { css: "#hero > h1", xpath: "/html/body/div/h1", idPath: null },
  fingerprint: { tag: "h1", text: "Welcome" },
  dot: { x: 0.25, y: 0.75 },
};

describe("targetSchema", () => {
  it("accepts one target of each kind", () => {
    const targets: Target[] = [
      { kind: "element", anchor, point: { x: 0.25, y: 0.75 } },
      { kind: "image-point", point: { x: 0.1, y: 0.2 } },
      { kind: "pdf-point", page: 3, point: { x: 0.5, y: 0.5 } },
      { kind: "slide", slideId: "s-2", objectId: "title", point: { x: 0, y: 1 } },
      { kind: "video", time: 12.5, region: { x: 0.1, y: 0.1, width: 0.5, height: 0.5 } },
    ];
    for (const target of targets) expect(targetSchema.parse(target)).toEqual(target);
  });

  it("rejects an unknown kind, a point outside its box, a page 0 and a region leaving the frame", () => {
    expect(targetSchema.safeParse({ kind: "audio", time: 1 }).success).toBe(false);
    expect(targetSchema.safeParse({ kind: "image-point", point: { x: 1.2, y: 0 } }).success).toBe(false);
    expect(targetSchema.safeParse({ kind: "pdf-point", page: 0, point: { x: 0, y: 0 } }).success).toBe(false);
    const outside = { kind: "video", time: 1, region: { x: 0.6, y: 0, width: 0.6, height: 0.1 } };
    expect(targetSchema.safeParse(outside).success).toBe(false);
    expect(targetSchema.safeParse({ kind: "image-point", point: { x: 0, y: 0 }, page: 2 }).success).toBe(
      false,
    );
  });
});

describe("targetMismatch", () => {
  it("lets each kind point only into its own content", () => {
    expect(targetMismatch({ kind: "image-point", point: { x: 0, y: 0 } }, "image")).toBeNull();
    expect(targetMismatch({ kind: "pdf-point", page: 1, point: { x: 0, y: 0 } }, "pdf")).toBeNull();
    expect(targetMismatch({ kind: "video", time: 3 }, "image")).toBe(
      "This comment points at a time in a video, but this version shows an image.",
    );
    expect(targetMismatch({ kind: "pdf-point", page: 1, point: { x: 0, y: 0 } }, "page")).toBe(
      "This comment points at a point on a PDF page, but this version shows a web page.",
    );
  });

  it("treats a screenshot as an image and a snapshot as a page", () => {
    expect(targetContentOf("screenshot")).toBe("image");
    expect(targetContentOf("image")).toBe("image");
    expect(targetContentOf("snapshot")).toBe("page");
    expect(targetContentOf("pdf")).toBe("pdf");
  });
});

const none = { querySelector: null, anchor: null, pdfPage: null, slideId: null, objectId: null };

describe("legacy columns", () => {
  it("turns every legacy shape into a target and back without loss", () => {
    const rows = [
      {
        columns: {
          querySelector: "#hero > h1",
          anchor,
          dotPosition: { x: 0.25, y: 0.75 },
          pdfPage: null,
          slideId: null,
          objectId: null,
        },
        content: "page",
      },
      {
        columns: {
          querySelector: "div.old",
          anchor: null,
          dotPosition: { x: 0.3, y: 0.4 },
          pdfPage: null,
          slideId: null,
          objectId: null,
        },
        content: "page",
      },
      {
        columns: {
          querySelector: null,
          anchor: null,
          dotPosition: { x: 0.1, y: 0.9 },
          pdfPage: null,
          slideId: null,
          objectId: null,
        },
        content: "image",
      },
      {
        columns: {
          querySelector: null,
          anchor: null,
          dotPosition: { x: 0.5, y: 0.5 },
          pdfPage: 4,
          slideId: null,
          objectId: null,
        },
        content: "pdf",
      },
      {
        columns: { ...none, dotPosition: { x: 0.2, y: 0.3 }, slideId: "s-1", objectId: "title" },
        content: "slides",
      },
      { columns: { ...none, dotPosition: { x: 0.6, y: 0.7 }, slideId: "s-1" }, content: "slides" },
    ] as const;
    const targets = rows.map((row) => targetFromLegacy(row.columns, row.content));
    expect(targets.map((target) => target.kind)).toEqual([
      "element",
      "element",
      "image-point",
      "pdf-point",
      "slide",
      "slide",
    ]);
    // The anchor says the selector already: it is not repeated.
    expect(targets[0]).toEqual({ kind: "element", anchor, point: { x: 0.25, y: 0.75 } });
    expect(targets[4]).toEqual({
      kind: "slide",
      slideId: "s-1",
      objectId: "title",
      point: { x: 0.2, y: 0.3 },
    });
    expect(targets[5]).toEqual({ kind: "slide", slideId: "s-1", point: { x: 0.6, y: 0.7 } });
    expect(targets[3]).toEqual({ kind: "pdf-point", page: 4, point: { x: 0.5, y: 0.5 } });
    expect(targets[1]).toEqual({
      kind: "element",
      anchor: null,
      selector: "div.old",
      point: { x: 0.3, y: 0.4 },
    });
    rows.forEach((row, i) => {
      expect(targetSchema.parse(targets[i])).toEqual(targets[i]);
      expect(legacyFromTarget(targets[i]!)).toEqual(row.columns);
    });
  });
});

describe("targetFromInput", () => {
  const point = { x: 0.4, y: 0.6 };
  it("reads a target, or the legacy fields as the kind they describe", () => {
    const target: Target = { kind: "video", time: 3 };
    expect(targetFromInput({ target }, "image")).toEqual(target);
    expect(targetFromInput({ anchor, dotPosition: point }, "page")).toEqual({
      kind: "element",
      anchor,
      point,
    });
    expect(targetFromInput({ dotPosition: point, pdfPage: 2 }, "pdf")).toEqual({
      kind: "pdf-point",
      page: 2,
      point,
    });
    expect(targetFromInput({ dotPosition: point }, "image")).toEqual({ kind: "image-point", point });
    expect(targetFromInput({ dotPosition: point }, "page")).toEqual({ kind: "element", anchor: null, point });
    expect(targetFromInput({ dotPosition: point }, "pdf")).toEqual({ kind: "pdf-point", page: 1, point });
  });

  it("is null without a place, or with both a target and legacy fields", () => {
    expect(targetFromInput({}, "image")).toBeNull();
    expect(
      targetFromInput({ target: { kind: "image-point", point }, dotPosition: point }, "image"),
    ).toBeNull();
  });
});

describe("movedTarget", () => {
  const element: Target = { kind: "element", anchor: null, selector: "div.old", point: { x: 0, y: 0 } };
  it("moves the point, and re-anchors an element (its bare selector goes)", () => {
    expect(movedTarget(element, { dotPosition: { x: 0.5, y: 0.5 } })).toEqual({
      ...element,
      point: { x: 0.5, y: 0.5 },
    });
    expect(movedTarget(element, { anchor })).toEqual({ kind: "element", anchor, point: { x: 0, y: 0 } });
  });

  it("refuses an anchor on anything but an element, and a point on a video time", () => {
    expect(movedTarget({ kind: "image-point", point: { x: 0, y: 0 } }, { anchor })).toBeNull();
    expect(movedTarget({ kind: "video", time: 1 }, { dotPosition: { x: 0, y: 0 } })).toBeNull();
  });
});
