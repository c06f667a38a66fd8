import { describe, expect, it } from "vitest";
import {
  BORDER_STYLES,
  type ChangeType,
  changesCssFile,
  cssPatch,
  FONT_SIZES,
  FONT_WEIGHT_OPTIONS,
  type InspectProperty,
  inspectChangeInputSchema,
  isFullyResolved,
  isValidStyleValue,
  mergeChanges,
  type RichText,
  richTextSchema,
  richTextToHtml,
  STYLE_PROPERTY_NAMES,
  safeCssSelector,
  saveChangesSchema,
  textChangesList,
} from "./index.ts";

interface Change {
  id?: string | undefined;
  changeType: ChangeType;
  querySelector: string;
  property: InspectProperty;
  deviceSize: "default" | "mobile";
  value: string | null;
  before?: string | null;
  after?: RichText | null;
  count: number;
  isHidden: boolean;
  isResolved: boolean;
  userId?: string;
}

const style = (
  querySelector: string,
  property: InspectProperty,
  value: string,
  more: Partial<Change> = {},
): Change => ({
  changeType: "style",
  querySelector,
  property,
  value,
  deviceSize: "default",
  count: 1,
  isHidden: false,
  isResolved: false,
  ...more,
});
const text = (querySelector: string, before: string, after: string, more: Partial<Change> = {}): Change => ({
  ...style(querySelector, "text", "", more),
  changeType: "text",
  value: null,
  before,
  after: { text: after, marks: [] },
  ...more,
});

describe("the §3 lists", () => {
  it("are the spec's font sizes, weights with italics, and border styles", () => {
    expect(FONT_SIZES).toEqual([8, 9, 10, 11, 12, 14, 16, 18, 20, 22, 24, 26, 28, 36, 48, 72]);
    expect(FONT_WEIGHT_OPTIONS).toHaveLength(18);
    expect(FONT_WEIGHT_OPTIONS.slice(0, 2)).toEqual([
      { weight: 100, italic: false },
      { weight: 100, italic: true },
    ]);
    expect(FONT_WEIGHT_OPTIONS.at(-1)).toEqual({ weight: 900, italic: true });
    expect(BORDER_STYLES).toEqual([
      "none",
      "dotted",
      "dashed",
      "solid",
      "double",
      "groove",
      "ridge",
      "inset",
      "outset",
    ]);
    for (const size of FONT_SIZES) expect(isValidStyleValue("font-size", `${size}px`)).toBe(true);
    for (const { weight } of FONT_WEIGHT_OPTIONS)
      expect(isValidStyleValue("font-weight", `${weight}`)).toBe(true);
    for (const border of BORDER_STYLES) expect(isValidStyleValue("border-style", border)).toBe(true);
  });
});

describe("style values", () => {
  it.each([
    ["font-family", `"Open Sans", Arial, sans-serif`],
    ["font-family", "Inter"],
    ["font-size", "1.25rem"],
    ["font-weight", "700"],
    ["font-style", "italic"],
    ["color", "#e5383b"],
    ["color", "rgb(229 56 59 / 50%)"],
    ["color", "rebeccapurple"],
    ["text-align", "center"],
    ["line-height", "1.5"],
    ["letter-spacing", "-0.5px"],
    ["margin-top", "-12px"],
    ["margin-left", "auto"],
    ["padding-bottom", "0"],
    ["border-width", "thin"],
    ["border-radius", "4px 8px"],
    ["border-top-left-radius", "50%"],
    ["background-color", "transparent"],
    ["opacity", "0.5"],
    ["visibility", "hidden"],
    ["translate", "10px -20px"],
    ["width", "auto"],
    ["color", "inherit"],
  ])("accepts %s: %s", (property, value) => {
    expect(isValidStyleValue(property, value)).toBe(true);
  });

  it.each([
    ["color", "red; background: url(https://evil.example/x)"],
    ["color", "red}body{display:none"],
    ["color", "red !important"],
    ["color", "red /* x */"],
    ["color", "expression(alert(1))"],
    ["color", "</style><script>alert(1)</script>"],
    ["background-color", "url(x.png)"],
    ["font-family", `"Open Sans`],
    ["font-family", `"a;b"`],
    ["font-family", "Arial\n}"],
    ["font-size", "12"],
    ["font-weight", "950"],
    ["padding-top", "-4px"],
    ["border-style", "wavy"],
    ["border-radius", "4px / 8px"],
    ["border-top-left-radius", "4px 8px"],
    ["opacity", "2"],
    ["translate", "rotate(45deg)"],
    ["display", "none"],
    ["position", "fixed"],
    ["__proto__", "x"],
  ])("refuses %s: %j", (property, value) => {
    expect(isValidStyleValue(property, value)).toBe(false);
  });

  it("has a grammar for every offered property", () => {
    expect(STYLE_PROPERTY_NAMES).toContain("border-radius");
    expect(STYLE_PROPERTY_NAMES).not.toContain("transform");
    for (const property of STYLE_PROPERTY_NAMES) {
      // Radii stay lengths, so four corners always make one border-radius.
      expect(isValidStyleValue(property, "initial")).toBe(!property.includes("radius"));
    }
  });
});

describe("selectors in CSS", () => {
  it("keeps ordinary and escaped selectors as they are", () => {
    for (const selector of [
      "#main > h1.title:nth-of-type(2)",
      String.raw`#\31 23`,
      String.raw`.a\{b`,
      `a[href="/pricing;plan=pro"]`,
      `button[aria-label='Close {x}']`,
    ]) {
      expect(safeCssSelector(selector)).toBe(selector);
    }
  });

  it("writes a '<' inside an attribute value as its escape", () => {
    expect(safeCssSelector(`[title="a</style>b"]`)).toBe(String.raw`[title="a\3c /style>b"]`);
  });

  it("refuses what would leave the rule", () => {
    for (const selector of [
      "h1 { color: red } body",
      "h1}",
      "h1;",
      `[title="open]`,
      "h1 /* x",
      "h1\n",
      "a\\",
      "",
    ]) {
      expect(safeCssSelector(selector), selector).toBeNull();
    }
  });
});

describe("rich text", () => {
  it("renders marks and line breaks as the only markup", () => {
    const rich = richTextSchema.parse({
      text: "Hello <b>world</b>\nbye",
      marks: [
        { mark: "b", start: 0, end: 5 },
        { mark: "i", start: 3, end: 9 },
      ],
    });
    expect(richTextToHtml(rich)).toBe("<b>Hel</b><b><i>lo</i></b><i> &lt;b&gt;</i>world&lt;/b&gt;<br>bye");
  });

  it("refuses marks outside the text and unknown marks", () => {
    expect(richTextSchema.safeParse({ text: "ab", marks: [{ mark: "b", start: 1, end: 3 }] }).success).toBe(
      false,
    );
    expect(richTextSchema.safeParse({ text: "ab", marks: [{ mark: "b", start: 1, end: 1 }] }).success).toBe(
      false,
    );
    expect(
      richTextSchema.safeParse({ text: "ab", marks: [{ mark: "script", start: 0, end: 1 }] }).success,
    ).toBe(false);
    expect(richTextSchema.safeParse({ text: "ab", html: "<img>" }).success).toBe(false);
  });
});

describe("change input", () => {
  const anchor = (querySelector: string) => ({
    v: 1,
    querySelector,
    selectors: { css: querySelector, xpath: "/html/body/h1", idPath: null },
    fingerprint: { tag: "h1" },
    dot: null,
  });

  it("accepts the three kinds", () => {
    const parsed = saveChangesSchema.parse({
      changes: [
        { changeType: "style", anchor: anchor("h1"), deviceWidth: 1280, property: "color", value: " red " },
        {
          changeType: "text",
          anchor: anchor("h1"),
          deviceWidth: 375,
          before: "Hi",
          after: { text: "Hello", marks: [{ mark: "u", start: 0, end: 5 }] },
        },
        {
          changeType: "image",
          anchor: anchor("img.hero"),
          deviceWidth: 1280,
          value: `/a/${"c".repeat(64)}.png`,
          imageDimensions: { width: 640, height: 480 },
        },
      ],
    });
    expect(parsed.changes[0]).toMatchObject({ value: "red" });
  });

  it.each([
    { changeType: "style", property: "color", value: "red;x:y" },
    { changeType: "style", property: "position", value: "fixed" },
    { changeType: "style", property: "color", value: "red", before: "x" },
    { changeType: "text", before: "a", after: "<b>a</b>" },
    { changeType: "image", value: "https://evil.example/x.png" },
    { changeType: "image", value: `/a/${"c".repeat(64)}.svg` },
    { changeType: "script", value: "x" },
  ])("refuses %j", (change) => {
    expect(
      inspectChangeInputSchema.safeParse({ anchor: anchor("h1"), deviceWidth: 1280, ...change }).success,
    ).toBe(false);
  });

  it("refuses an element whose selector cannot be written as CSS", () => {
    const change = {
      changeType: "style",
      anchor: anchor("h1 {"),
      deviceWidth: 1280,
      property: "color",
      value: "red",
    };
    expect(inspectChangeInputSchema.safeParse(change).success).toBe(false);
  });

  it("caps a save at 500 changes", () => {
    const one = {
      changeType: "style",
      anchor: anchor("h1"),
      deviceWidth: 1280,
      property: "color",
      value: "red",
    };
    expect(saveChangesSchema.safeParse({ changes: Array(500).fill(one) }).success).toBe(true);
    expect(saveChangesSchema.safeParse({ changes: Array(501).fill(one) }).success).toBe(false);
    expect(saveChangesSchema.safeParse({ changes: [] }).success).toBe(false);
  });
});

describe("mergeChanges", () => {
  it("replaces the value of the same element, property and device size and counts the edits", () => {
    const existing = [style("h1", "color", "red", { id: "c1", userId: "ann" })];
    const merged = mergeChanges(existing, [
      style("h1", "color", "blue", { userId: "bob" }),
      style("h1", "color", "green", { userId: "bob" }),
    ]);
    expect(merged).toEqual([style("h1", "color", "green", { id: "c1", userId: "bob", count: 3 })]);
  });

  it("keeps different elements, properties and device sizes apart", () => {
    const merged = mergeChanges(
      [],
      [
        style("h1", "color", "red"),
        style("h2", "color", "red"),
        style("h1", "opacity", "0.5"),
        style("h1", "color", "blue", { deviceSize: "mobile" }),
      ],
    );
    expect(merged).toHaveLength(4);
    expect(merged.every((change) => change.count === 1)).toBe(true);
  });

  it("returns untouched changes as the same objects", () => {
    const untouched = style("p", "color", "red", { id: "p1" });
    const touched = style("h1", "color", "red", { id: "h1" });
    const merged = mergeChanges([untouched, touched], [style("h1", "color", "blue")]);
    expect(merged[0]).toBe(untouched);
    expect(merged[1]).not.toBe(touched);
    expect(merged[1]).toMatchObject({ id: "h1", value: "blue", count: 2 });
  });

  it("shows a hidden or resolved change again when it is edited", () => {
    const merged = mergeChanges(
      [style("h1", "color", "red", { id: "c1", isHidden: true, isResolved: true })],
      [style("h1", "color", "blue")],
    );
    expect(merged[0]).toMatchObject({ isHidden: false, isResolved: false, count: 2 });
  });

  it("keeps the first 'before' of a text change", () => {
    const merged = mergeChanges(
      [text("h1", "Original", "First try", { id: "t1" })],
      [text("h1", "First try", "Second try")],
    );
    expect(merged[0]).toMatchObject({
      id: "t1",
      before: "Original",
      after: { text: "Second try" },
      count: 2,
    });
  });

  it("merges the four corner radii into one border-radius", () => {
    const existing = [
      style("img", "border-top-left-radius", "4px", { id: "tl" }),
      style("img", "border-top-right-radius", "8px", { id: "tr", count: 2 }),
    ];
    const merged = mergeChanges(existing, [
      style("img", "border-bottom-right-radius", "4px"),
      style("img", "border-bottom-left-radius", "8px"),
    ]);
    expect(merged).toEqual([
      style("img", "border-radius", "4px 8px", { id: undefined, before: null, count: 5 }),
    ]);
  });

  it("writes the shortest border-radius", () => {
    const corners = (values: string[]) =>
      mergeChanges(
        [],
        values.map((value, i) =>
          style(
            "a",
            [
              "border-top-left-radius",
              "border-top-right-radius",
              "border-bottom-right-radius",
              "border-bottom-left-radius",
            ][i] as InspectProperty,
            value,
          ),
        ),
      )[0]!.value;
    expect(corners(["3px", "3px", "3px", "3px"])).toBe("3px");
    expect(corners(["1px", "2px", "1px", "2px"])).toBe("1px 2px");
    expect(corners(["1px", "2px", "3px", "2px"])).toBe("1px 2px 3px");
    expect(corners(["1px", "2px", "3px", "4px"])).toBe("1px 2px 3px 4px");
  });

  it("updates one corner of an existing border-radius", () => {
    const merged = mergeChanges(
      [style("img", "border-radius", "4px", { id: "r1" })],
      [style("img", "border-bottom-left-radius", "0")],
    );
    expect(merged).toEqual([style("img", "border-radius", "4px 4px 4px 0", { id: "r1", count: 2 })]);
  });

  it("lets a border-radius replace the separate corners, counting their edits", () => {
    const merged = mergeChanges(
      [
        style("img", "border-top-left-radius", "4px", { id: "tl" }),
        style("img", "color", "red", { id: "c" }),
      ],
      [style("img", "border-radius", "10px")],
    );
    expect(merged.map((change) => [change.id, change.property, change.value, change.count])).toEqual([
      ["c", "color", "red", 1],
      [undefined, "border-radius", "10px", 2],
    ]);
  });

  it("merges corners per device size", () => {
    const corners = [
      "border-top-left-radius",
      "border-top-right-radius",
      "border-bottom-right-radius",
    ] as const;
    const merged = mergeChanges(
      [],
      [
        ...corners.map((corner) => style("a", corner, "2px")),
        style("a", "border-bottom-left-radius", "2px", { deviceSize: "mobile" }),
      ],
    );
    expect(merged).toHaveLength(4);
  });
});

describe("resolution", () => {
  it("is full when every change is resolved", () => {
    expect(isFullyResolved([])).toBe(true);
    expect(isFullyResolved([style("a", "color", "red", { isResolved: true })])).toBe(true);
    expect(
      isFullyResolved([style("a", "color", "red", { isResolved: true }), style("b", "color", "red")]),
    ).toBe(false);
  });
});

describe("cssPatch", () => {
  it("writes the open style changes per element, desktop first, mobile in the 740 px media query", () => {
    const css = cssPatch([
      style("h1", "color", "red", { deviceSize: "mobile" }),
      style("h1", "color", "#e5383b"),
      style("h1", "font-size", "24px"),
      style("p.lead", "opacity", "0.5", { isHidden: true }),
      style("footer", "opacity", "0.5", { isResolved: true }),
      text("h1", "a", "b"),
      style("nav a", "translate", "10px 0"),
    ]);
    expect(css).toBe(
      [
        "h1 {",
        "  color: #e5383b !important;",
        "  font-size: 24px !important;",
        "}",
        "",
        "nav a {",
        "  translate: 10px 0 !important;",
        "}",
        "",
        "@media (max-width: 740px) {",
        "  h1 {",
        "    color: red !important;",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("leaves out what could not be written safely, even if stored", () => {
    const css = cssPatch([
      style("h1", "color", "red;}body{display:none"),
      style("h1}body", "color", "red"),
      style("h1", "display" as InspectProperty, "none"),
      style("h2", "color", "blue"),
    ]);
    expect(css).toBe("h2 {\n  color: blue !important;\n}\n");
  });

  it("is empty without open style changes", () => {
    expect(cssPatch([])).toBe("");
  });
});

describe("text changes", () => {
  it("lists the open text changes as before and after", () => {
    const list = textChangesList([
      text("h1", "Welcome", "Welcome home"),
      text("p", "Old", "New", { isResolved: true }),
      text("footer p", "Line one", "Line one\nLine two", { deviceSize: "mobile" }),
      style("h1", "color", "red"),
    ]);
    expect(list).toBe(
      [
        "1. h1",
        "   Before: Welcome",
        "   After:  Welcome home",
        "",
        "2. footer p (mobile)",
        "   Before: Line one",
        "   After:  Line one",
        "           Line two",
      ].join("\n"),
    );
  });

  it("go into the .css file as a comment that cannot be closed early", () => {
    const file = changesCssFile([
      style("h1", "color", "red"),
      text("h1", "a */ b", "c */ h1 { color: blue }"),
    ]);
    expect(file).toContain("h1 {\n  color: red !important;\n}\n");
    expect(file.match(/\*\//g)).toHaveLength(1);
    expect(file.trimEnd().endsWith("*/")).toBe(true);
    expect(changesCssFile([])).toBe("/* No open style changes. */\n");
  });
});
