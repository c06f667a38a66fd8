import { describe, expect, it } from "vitest";
import type { FrameAnchor } from "./frame-messages.ts";
import { inspectChangeInputSchema } from "./inspect.ts";
import {
  activityGroups,
  colorToHex,
  describeChange,
  type EditStep,
  elementLabel,
  frameChangesOf,
  imageEdit,
  moveEdit,
  type PendingEdit,
  pendingChanges,
  pendingCount,
  pushStep,
  pxOf,
  styleEdit,
  textEdit,
  toChangeInput,
  undoStep,
} from "./inspect-panel.ts";

const anchorOf = (querySelector: string): FrameAnchor => ({
  v: 1,
  querySelector,
  selectors: { css: querySelector, xpath: "/html/body/h1", idPath: null },
  fingerprint: {},
  dot: null,
});
const h1 = { anchor: anchorOf("body > header > h1"), deviceWidth: 1280 };
const phone = { anchor: anchorOf("body > header > h1"), deviceWidth: 375.4 };
const must = (edit: PendingEdit | null): PendingEdit => {
  if (!edit) throw new Error("expected an edit");
  return edit;
};

describe("building edits", () => {
  it("validates style values and picks the device size from the width", () => {
    expect(styleEdit(h1, "font-size", " 24px ")).toMatchObject({
      changeType: "style",
      property: "font-size",
      value: "24px",
      deviceSize: "default",
      deviceWidth: 1280,
      querySelector: "body > header > h1",
      count: 1,
    });
    expect(styleEdit(phone, "color", "#ff0000")).toMatchObject({ deviceSize: "mobile", deviceWidth: 375 });
    expect(styleEdit(h1, "font-size", "24px; color: red")).toBeNull();
    expect(styleEdit(h1, "position", "absolute")).toBeNull();
    expect(styleEdit(h1, "margin-top", "")).toBeNull();
  });

  it("turns moves, text and images into changes the API accepts", () => {
    const move = must(moveEdit(h1, { x: 10.2, y: -20 }));
    expect(move).toMatchObject({ property: "translate", value: "10px -20px" });
    expect(must(moveEdit(h1, { x: 0, y: 30 })).value).toBe("0 30px");
    const text = must(textEdit(h1, "Acme", { text: "Acme shoes", marks: [{ mark: "b", start: 0, end: 4 }] }));
    expect(text).toMatchObject({ changeType: "text", property: "text", before: "Acme" });
    expect(textEdit(h1, "Same", { text: "Same", marks: [] })).toBeNull();
    const path = `/a/${"a".repeat(64)}.png`;
    const image = must(imageEdit(h1, path, { width: 10, height: 20 }));
    expect(imageEdit(h1, "/elsewhere.png")).toBeNull();
    for (const edit of [move, text, image, must(styleEdit(h1, "opacity", "0.5"))])
      expect(inspectChangeInputSchema.safeParse(toChangeInput(edit)).success).toBe(true);
    expect(toChangeInput(image)).toMatchObject({ value: path, imageDimensions: { width: 10, height: 20 } });
  });
});

describe("the undo stack", () => {
  it("merges steps by element, property and device, and undo drops the last step", () => {
    let stack = pushStep([], [must(styleEdit(h1, "font-size", "20px"))]);
    stack = pushStep(stack, [must(styleEdit(h1, "font-size", "24px"))]);
    stack = pushStep(stack, [
      must(styleEdit(h1, "font-weight", "700")),
      must(styleEdit(h1, "font-style", "italic")),
    ]);
    expect(pendingCount(stack)).toBe(3);
    expect(pendingChanges(stack).find((edit) => edit.property === "font-size")).toMatchObject({
      value: "24px",
      count: 2,
    });
    stack = undoStep(stack);
    expect(pendingChanges(stack).map((edit) => edit.property)).toEqual(["font-size"]);
    stack = undoStep(stack);
    expect(pendingChanges(stack)[0]?.value).toBe("20px");
    expect(undoStep(undoStep(stack))).toEqual([]);
  });

  it("coalesces typing into one field into one step", () => {
    let stack = pushStep([], [must(styleEdit(h1, "margin-top", "1px"))], { coalesce: true });
    stack = pushStep(stack, [must(styleEdit(h1, "margin-top", "12px"))], { coalesce: true });
    expect(stack).toHaveLength(1);
    stack = pushStep(stack, [must(styleEdit(h1, "margin-left", "4px"))], { coalesce: true });
    expect(stack).toHaveLength(2);
    expect(pushStep(stack, [])).toHaveLength(2);
  });

  it("merges four corner radii into one border-radius", () => {
    let stack: EditStep[] = [];
    for (const corner of [
      "border-top-left-radius",
      "border-top-right-radius",
      "border-bottom-right-radius",
      "border-bottom-left-radius",
    ])
      stack = pushStep(stack, [must(styleEdit(h1, corner, "8px"))]);
    expect(pendingChanges(stack)).toMatchObject([{ property: "border-radius", value: "8px", count: 4 }]);
    expect(inspectChangeInputSchema.safeParse(toChangeInput(pendingChanges(stack)[0]!)).success).toBe(true);
  });
});

describe("what the page shows", () => {
  const saved = (id: string, property: string, value: string, isHidden = false) => ({
    id,
    anchor: h1.anchor,
    changeType: "style" as const,
    querySelector: h1.anchor.querySelector,
    property: property as "color",
    value,
    after: null,
    before: null,
    deviceSize: "default" as const,
    count: 1,
    isHidden,
  });

  it("shows saved visible changes with unsaved ones over them", () => {
    const shown = frameChangesOf(
      [saved("c1", "color", "red"), saved("c2", "font-size", "30px"), saved("c3", "opacity", "0.5", true)],
      [must(styleEdit(h1, "color", "blue")), must(styleEdit(phone, "color", "green"))],
    );
    expect(shown.map(({ id, property, value, deviceSize }) => ({ id, property, value, deviceSize }))).toEqual(
      [
        { id: "c1", property: "color", value: "blue", deviceSize: "default" },
        { id: "c2", property: "font-size", value: "30px", deviceSize: "default" },
        { id: expect.stringMatching(/^pending:/), property: "color", value: "green", deviceSize: "mobile" },
      ],
    );
    expect(new Set(shown.map((change) => change.id)).size).toBe(3);
  });
});

describe("the activity panel", () => {
  it("groups by author and save, newest first", () => {
    const ada = { uid: "u1", displayName: "Ada" };
    const bob = { uid: "u2", displayName: "Bob" };
    const groups = activityGroups([
      { id: "a", author: ada, groupCreatedAt: "2026-01-01T00:00:00Z", createdAt: "2026-01-01T00:00:01Z" },
      { id: "b", author: bob, groupCreatedAt: "2026-01-02T00:00:00Z", createdAt: "2026-01-02T00:00:00Z" },
      { id: "c", author: ada, groupCreatedAt: "2026-01-01T00:00:00Z", createdAt: "2026-01-01T00:00:00Z" },
      { id: "d", author: ada, groupCreatedAt: "2026-01-03T00:00:00Z", createdAt: "2026-01-03T00:00:00Z" },
    ]);
    expect(
      groups.map((group) => [group.author.displayName, group.changes.map((change) => change.id)]),
    ).toEqual([
      ["Ada", ["d"]],
      ["Bob", ["b"]],
      ["Ada", ["c", "a"]],
    ]);
  });

  it("names elements and changes briefly", () => {
    expect(elementLabel("body > main > section.hero > p.lead")).toBe("p.lead");
    expect(elementLabel("#buy")).toBe("#buy");
    expect(elementLabel('main > section > img[src="/a b.png"]:nth-of-type(1)')).toBe(
      'img[src="/a b.png"]:nth-of-type(1)',
    );
    expect(elementLabel("ul > li:nth-child(2 of .x) + li")).toBe("li");
    expect(elementLabel(`div ${"x".repeat(60)}`)).toHaveLength(40);
    expect(describeChange({ changeType: "style", property: "font-size", value: "24px" })).toBe(
      "font-size: 24px",
    );
    expect(
      describeChange({
        changeType: "text",
        property: "text",
        value: null,
        before: "Light  and\nfast.",
        after: { text: "Lighter", marks: [] },
      }),
    ).toBe("text: “Light and fast.” → “Lighter”");
    expect(describeChange({ changeType: "image", property: "src", value: "/a/x.png" })).toBe(
      "image: replaced",
    );
  });
});

describe("reading computed values", () => {
  it("converts colours and pixel values", () => {
    expect(colorToHex("rgb(255, 0, 16)")).toBe("#ff0010");
    expect(colorToHex("rgba(0, 0, 0, 0)")).toBe("#000000");
    expect(colorToHex("#ABC")).toBe("#aabbcc");
    expect(colorToHex("red")).toBeNull();
    expect(pxOf("16px")).toBe(16);
    expect(pxOf("-2.5px")).toBe(-2.5);
    expect(pxOf("0")).toBe(0);
    expect(pxOf("auto")).toBeNull();
    expect(pxOf(undefined)).toBeNull();
  });
});
