/**
 * The edit panel's properties, whose computed values `inspect:selected` reports and which style
 * changes may set. The same list as STYLE_PROPERTY_NAMES in @redline/shared (inspect.ts), which the
 * overlay cannot import without bundling classic zod; style-properties.test.ts keeps the two equal.
 */
export const STYLE_PROPERTIES: readonly string[] = [
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "color",
  "text-align",
  "line-height",
  "letter-spacing",
  "margin-top",
  "margin-right",
  "margin-bottom",
  "margin-left",
  "padding-top",
  "padding-right",
  "padding-bottom",
  "padding-left",
  "border-style",
  "border-width",
  "border-color",
  "border-radius",
  "border-top-left-radius",
  "border-top-right-radius",
  "border-bottom-right-radius",
  "border-bottom-left-radius",
  "background-color",
  "opacity",
  "visibility",
  "width",
  "height",
  "translate",
];

/** Mobile changes apply at this width and below (SPEC §9 edits breakpoint 741/740). */
export const MOBILE_MAX_WIDTH = 740;
