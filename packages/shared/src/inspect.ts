/**
 * Inspect mode: suggested visual edits (SPEC §3 Inspect change, §4 change resolution and merging).
 *
 * A change names an element (the same anchor as comments, its `querySelector` being the element's key),
 * a property and a value, per device size (§9 breakpoint 741/740). Three kinds:
 *   style  `property` is one of STYLE_PROPERTIES, `value` a CSS value checked by that property's grammar
 *   text   `property` "text"; `before` is the element's text, `after` rich text (plain text + b/i/u ranges)
 *   image  `property` "src"; `value` the content-origin path of an uploaded image (`/a/<sha256>.<ext>`)
 *
 * Values end up as CSS text (the `.css` patch, the preview): every value and selector is checked so that
 * it can never leave its declaration or rule — no `;`, braces, `<`, comments, `url(`, unbalanced quotes.
 */
import { z } from "zod";
import {
  anchorSchema,
  commentAuthorSchema,
  DEVICE_SIZES,
  type DeviceSize,
  MOBILE_DEVICE_MAX_WIDTH,
} from "./comments.ts";

export const CHANGE_TYPES = ["style", "text", "image"] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** At most this many changes in one save. */
export const MAX_CHANGES_PER_SAVE = 500;
export const MAX_TEXT_CHANGE_LENGTH = 10_000;
const MAX_STYLE_VALUE_LENGTH = 200;
const MAX_MARKS = 500;

/** §8 texts of inspect mode. */
export const INSPECT_MESSAGES = {
  saved: "New changes have been saved successfully.",
  deleted: "Suggestion(s) deleted successfully.",
} as const;

/** The edit panel's lists (SPEC §3). */
export const FONT_SIZES = [8, 9, 10, 11, 12, 14, 16, 18, 20, 22, 24, 26, 28, 36, 48, 72] as const;
export const FONT_WEIGHTS = [100, 200, 300, 400, 500, 600, 700, 800, 900] as const;
/** Each weight with its italic variant, in the order the picker shows them. */
export const FONT_WEIGHT_OPTIONS: readonly { weight: (typeof FONT_WEIGHTS)[number]; italic: boolean }[] =
  FONT_WEIGHTS.flatMap((weight) => [
    { weight, italic: false },
    { weight, italic: true },
  ]);
export const BORDER_STYLES = [
  "none",
  "dotted",
  "dashed",
  "solid",
  "double",
  "groove",
  "ridge",
  "inset",
  "outset",
] as const;

// --- value grammars -------------------------------------------------------------------------------

const UNITS = "px|em|rem|%|pt|vw|vh|vmin|vmax|ch|ex";
const NUMBER = String.raw`(?:\d{1,5}(?:\.\d{1,4})?|\.\d{1,4})`;
const LENGTH = `(?:0|${NUMBER}(?:${UNITS}))`;
const SIGNED_LENGTH = `(?:0|-?${NUMBER}(?:${UNITS}))`;
const whole = (source: string) => new RegExp(`^(?:${source})$`);
const words = (...list: readonly string[]) => list.join("|");

const length = whole(LENGTH);
const color = whole(
  [
    "#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})",
    String.raw`(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([-+0-9.%a-z\s,/]{1,80}\)`,
    "[a-zA-Z]{3,30}",
  ].join("|"),
);
const familyName = `(?:[A-Za-z0-9_-]+(?: [A-Za-z0-9_-]+)*|"[A-Za-z0-9 _.-]{1,100}"|'[A-Za-z0-9 _.-]{1,100}')`;

/**
 * The properties the edit panel offers, each with the grammar its value must match. Moves use the
 * `translate` property rather than `transform`: it composes with the page's own transform instead of
 * replacing it, so moving an element never undoes its rotation or scale. Corner radii take one length
 * each, so four of them always merge exactly into one `border-radius` (§4).
 */
export const STYLE_PROPERTIES = {
  "font-family": whole(String.raw`\s*${familyName}\s*(?:,\s*${familyName}\s*){0,9}`),
  "font-size": whole(
    `${LENGTH}|${words("xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large", "smaller", "larger")}`,
  ),
  "font-weight": whole(`[1-9]00|${words("normal", "bold", "bolder", "lighter")}`),
  "font-style": whole(words("normal", "italic", "oblique")),
  color,
  "text-align": whole(words("left", "right", "center", "justify", "start", "end")),
  "line-height": whole(`normal|${NUMBER}|${LENGTH}`),
  "letter-spacing": whole(`normal|${SIGNED_LENGTH}`),
  "margin-top": whole(`auto|${SIGNED_LENGTH}`),
  "margin-right": whole(`auto|${SIGNED_LENGTH}`),
  "margin-bottom": whole(`auto|${SIGNED_LENGTH}`),
  "margin-left": whole(`auto|${SIGNED_LENGTH}`),
  "padding-top": length,
  "padding-right": length,
  "padding-bottom": length,
  "padding-left": length,
  "border-style": whole(words(...BORDER_STYLES)),
  "border-width": whole(`${LENGTH}|${words("thin", "medium", "thick")}`),
  "border-color": color,
  "border-radius": whole(`${LENGTH}(?: ${LENGTH}){0,3}`),
  "border-top-left-radius": length,
  "border-top-right-radius": length,
  "border-bottom-right-radius": length,
  "border-bottom-left-radius": length,
  "background-color": color,
  opacity: whole(String.raw`0|1|0?\.\d{1,4}|1\.0{1,4}|\d{1,2}%|100%`),
  visibility: whole(words("visible", "hidden", "collapse")),
  width: whole(`auto|${LENGTH}`),
  height: whole(`auto|${LENGTH}`),
  translate: whole(`${SIGNED_LENGTH}(?: ${SIGNED_LENGTH})?`),
} as const satisfies Record<string, RegExp>;
export type StyleProperty = keyof typeof STYLE_PROPERTIES;
export const STYLE_PROPERTY_NAMES = Object.keys(STYLE_PROPERTIES) as [StyleProperty, ...StyleProperty[]];

/** Text changes are keyed by "text", image changes by "src". */
export type InspectProperty = StyleProperty | "text" | "src";

/** The four corners in the order `border-radius` lists them. */
export const CORNER_RADII = [
  "border-top-left-radius",
  "border-top-right-radius",
  "border-bottom-right-radius",
  "border-bottom-left-radius",
] as const satisfies readonly StyleProperty[];

const isCorner = (property: InspectProperty) => (CORNER_RADII as readonly string[]).includes(property);

const GLOBAL_KEYWORDS = /^(?:inherit|initial|unset|revert)$/;

/**
 * Whether `value` is a valid value of `property`: its grammar, or a CSS-wide keyword (not for radii,
 * which merge as lengths). The grammars admit none of `; { } < > \ !`, quotes only in balanced
 * font-family names, no comments, no `url(`.
 */
export function isValidStyleValue(property: string, value: string): boolean {
  if (!Object.hasOwn(STYLE_PROPERTIES, property) || value.length > MAX_STYLE_VALUE_LENGTH) return false;
  if (/[;{}<>\\!\p{Cc}]|\/\*|\*\/|url\(/iu.test(value)) return false;
  const isRadius = property === "border-radius" || isCorner(property as StyleProperty);
  return (
    (!isRadius && GLOBAL_KEYWORDS.test(value)) || STYLE_PROPERTIES[property as StyleProperty].test(value)
  );
}

/**
 * `selector` as text that can sit in front of ` {` without ending the rule early, or null when that is
 * impossible. Outside strings no `{ } ; < /` (none is valid there anyway); strings must be closed; a `<`
 * inside a string (an attribute value) is written as the escape `\3c `, which means the same character,
 * so the CSS may also be inlined in a `<style>` element. Escapes (`\{`, `\31 `) pass through.
 */
export function safeCssSelector(selector: string): string | null {
  if (selector.length === 0 || selector.length > 2000 || /\p{Cc}/u.test(selector)) return null;
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < selector.length; i++) {
    const char = selector[i]!;
    if (char === "\\") {
      const next = selector[i + 1];
      if (next === undefined) return null;
      out += next === "<" ? String.raw`\3c ` : `\\${next}`;
      i++;
    } else if (quote) {
      if (char === quote) quote = null;
      out += char === "<" ? String.raw`\3c ` : char;
    } else if (char === '"' || char === "'") {
      quote = char;
      out += char;
    } else if ("{};</".includes(char)) {
      return null;
    } else {
      out += char;
    }
  }
  return quote ? null : out;
}

// --- rich text ------------------------------------------------------------------------------------

export const TEXT_MARKS = ["b", "i", "u"] as const;
export type TextMark = (typeof TEXT_MARKS)[number];

/**
 * An element's new text: plain text (line breaks as "\n", shown as `<br>`) and bold / italic / underline
 * ranges over it (UTF-16 offsets, end exclusive, may overlap). Never HTML, so it cannot carry markup.
 */
export const richTextSchema = z
  .object({
    text: z.string().max(MAX_TEXT_CHANGE_LENGTH),
    marks: z
      .array(
        z
          .object({
            mark: z.enum(TEXT_MARKS),
            start: z.number().int().min(0).max(MAX_TEXT_CHANGE_LENGTH),
            end: z.number().int().min(1).max(MAX_TEXT_CHANGE_LENGTH),
          })
          .strict(),
      )
      .max(MAX_MARKS)
      .default([]),
  })
  .strict()
  .refine(
    (rich) => rich.marks.every((mark) => mark.start < mark.end && mark.end <= rich.text.length),
    "A mark must cover part of the text",
  );
export type RichText = z.infer<typeof richTextSchema>;

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** The HTML of rich text: escaped text, `<b>`/`<i>`/`<u>` around marked runs, `<br>` for line breaks. */
export function richTextToHtml(rich: RichText): string {
  const cuts = new Set([0, rich.text.length]);
  for (const mark of rich.marks)
    cuts.add(Math.min(mark.start, rich.text.length)).add(Math.min(mark.end, rich.text.length));
  const points = [...cuts].sort((a, b) => a - b);
  let html = "";
  for (let i = 0; i < points.length - 1; i++) {
    const [start, end] = [points[i]!, points[i + 1]!];
    const active = TEXT_MARKS.filter((name) =>
      rich.marks.some((mark) => mark.mark === name && mark.start <= start && mark.end >= end),
    );
    const run = escapeHtml(rich.text.slice(start, end)).replace(/\r?\n/g, "<br>");
    html +=
      active.map((name) => `<${name}>`).join("") +
      run +
      [...active]
        .reverse()
        .map((name) => `</${name}>`)
        .join("");
  }
  return html;
}

// --- input ----------------------------------------------------------------------------------------

const target = {
  /** The element, located by packages/anchoring; its querySelector is the change's key. */
  anchor: anchorSchema,
  /** The viewer's width when the change was made: decides default or mobile (§9). */
  deviceWidth: z.number().int().min(100).max(10_000),
};

/** Where an uploaded replacement image lives on the content origin (`POST …/changes/images`). */
export const INSPECT_IMAGE_PATH = /^\/a\/[0-9a-f]{64}\.(?:jpg|png|webp|gif)$/;

const styleChangeSchema = z
  .object({
    changeType: z.literal("style"),
    ...target,
    property: z.enum(STYLE_PROPERTY_NAMES),
    value: z.string().trim().min(1).max(MAX_STYLE_VALUE_LENGTH),
  })
  .strict()
  .refine((change) => isValidStyleValue(change.property, change.value), {
    message: "Not a valid value for this property",
    path: ["value"],
  });

const textChangeSchema = z
  .object({
    changeType: z.literal("text"),
    ...target,
    before: z.string().max(MAX_TEXT_CHANGE_LENGTH),
    after: richTextSchema,
  })
  .strict();

const imageChangeSchema = z
  .object({
    changeType: z.literal("image"),
    ...target,
    value: z.string().regex(INSPECT_IMAGE_PATH),
    imageDimensions: z
      .object({ width: z.number().int().min(1).max(20_000), height: z.number().int().min(1).max(20_000) })
      .strict()
      .optional(),
  })
  .strict();

/** The selector is part of the merge key's database index, whose entries must stay well under 2.7 kB. */
export const MAX_CHANGE_SELECTOR_BYTES = 1000;

export const inspectChangeInputSchema = z
  .discriminatedUnion("changeType", [styleChangeSchema, textChangeSchema, imageChangeSchema])
  .refine(
    ({ anchor }) =>
      safeCssSelector(anchor.querySelector) !== null &&
      new TextEncoder().encode(anchor.querySelector).length <= MAX_CHANGE_SELECTOR_BYTES,
    { message: "This element's selector cannot be used in CSS", path: ["anchor", "querySelector"] },
  );
export type InspectChangeInput = z.infer<typeof inspectChangeInputSchema>;

/** POST /api/versions/{id}/changes: one save of the edit panel. */
export const saveChangesSchema = z
  .object({ changes: z.array(inspectChangeInputSchema).min(1).max(MAX_CHANGES_PER_SAVE) })
  .strict();
/** PATCH /api/changes/{id}: the eye (hide from the preview) and resolve. */
export const updateChangeSchema = z
  .object({ isHidden: z.boolean(), isResolved: z.boolean() })
  .partial()
  .strict();
/** DELETE /api/versions/{id}/changes. */
export const deleteChangesSchema = z
  .object({ ids: z.array(z.string().min(1).max(64)).min(1).max(MAX_CHANGES_PER_SAVE) })
  .strict();

export function propertyOf(change: InspectChangeInput): InspectProperty {
  if (change.changeType === "text") return "text";
  if (change.changeType === "image") return "src";
  return change.property;
}

// --- output ---------------------------------------------------------------------------------------

/** What the reader may do with a saved change, computed by the server's changes policy. */
export const changeAbilitiesSchema = z.strictObject({
  resolve: z.boolean(),
  hide: z.boolean(),
  delete: z.boolean(),
});
export type ChangeAbilities = z.infer<typeof changeAbilitiesSchema>;

const imageDimensionsSchema = z.strictObject({
  width: z.number().int().min(1),
  height: z.number().int().min(1),
});

export const inspectChangeSchema = z.strictObject({
  id: z.string(),
  projectId: z.string(),
  pageId: z.string(),
  versionId: z.string(),
  changeType: z.enum(CHANGE_TYPES),
  querySelector: z.string(),
  anchor: anchorSchema,
  property: z.enum([...STYLE_PROPERTY_NAMES, "text", "src"]),
  /** Style: the CSS value; image: the new image's path; text: null. */
  value: z.string().nullable(),
  /** Text changes: the element's text before, and after. */
  before: z.string().nullable(),
  after: richTextSchema.nullable(),
  imageDimensions: imageDimensionsSchema.nullable(),
  deviceSize: z.enum(DEVICE_SIZES),
  /** How many edits were merged into this change (§4). */
  count: z.number().int().min(1),
  isHidden: z.boolean(),
  isResolved: z.boolean(),
  resolvedBy: z.string().nullable(),
  /** Who made the latest edit. */
  userId: z.string().nullable(),
  author: commentAuthorSchema,
  createdAt: z.iso.datetime(),
  /** When the save that last edited it happened: the activity panel groups by it (SPEC §3). */
  groupCreatedAt: z.iso.datetime(),
  modifiedAt: z.iso.datetime(),
  abilities: changeAbilitiesSchema,
});
export type InspectChange = z.infer<typeof inspectChangeSchema>;

/** DELETE /api/versions/{id}/changes: how many went. */
export const changesDeletedSchema = z.strictObject({ deleted: z.number().int().min(0) });
/** POST /api/versions/{id}/changes/images: where the uploaded image is served, and its size. */
export const inspectImageSchema = z.strictObject({
  path: z.string().regex(INSPECT_IMAGE_PATH),
  imageDimensions: imageDimensionsSchema,
});

// --- rules ----------------------------------------------------------------------------------------

/** What merging needs of a change; callers pass their own richer objects through. */
export interface MergeableChange {
  id?: string | undefined;
  changeType: ChangeType;
  querySelector: string;
  property: InspectProperty;
  deviceSize: DeviceSize;
  value: string | null;
  before?: string | null | undefined;
  count: number;
}

/** Changes with the same key are one change (§4 "changes by the same context are merged"). */
export function changeKey(
  change: Pick<MergeableChange, "querySelector" | "property" | "deviceSize">,
): string {
  return JSON.stringify([change.querySelector, change.property, change.deviceSize]);
}

/** `border-radius: a b c d` → the four corners (CSS shorthand expansion; values have no `/`). */
function cornersOf(borderRadius: string): [string, string, string, string] {
  const [a, b = a, c = a, d = b] = borderRadius.trim().split(/\s+/) as [string, ...string[]];
  return [a, b, c, d];
}

/** The four corners → the shortest `border-radius` value. */
function borderRadiusOf([tl, tr, br, bl]: readonly string[]): string {
  if (tr === bl) {
    if (tl === br) return tl === tr ? tl! : `${tl} ${tr}`;
    return `${tl} ${tr} ${br}`;
  }
  return `${tl} ${tr} ${br} ${bl}`;
}

/**
 * Merges new changes (in the order they were made) into the existing ones (§4):
 * - a change with the key of an existing one replaces its value and adds to its count; the newer fields
 *   win (so a new edit shows again and is unresolved again), except the id and the first `before` text;
 * - once an element has all four corner radii on a device size, they become one `border-radius` change
 *   (count = their sum); a corner edited while a `border-radius` exists updates that one corner of it;
 *   a `border-radius` replaces the element's separate corners.
 * Returns the whole resulting list. Entries no edit touched are the same objects as given, so a caller
 * can tell what to write: new objects with an id are updates, without one inserts, and given ids that
 * are missing were merged away.
 */
export function mergeChanges<T extends MergeableChange>(existing: readonly T[], incoming: readonly T[]): T[] {
  const byKey = new Map<string, T>(existing.map((change) => [changeKey(change), change]));
  const combine = (older: T, newer: T, overrides: Partial<MergeableChange> = {}): T => ({
    ...older,
    ...newer,
    id: older.id,
    before: older.before ?? newer.before,
    count: older.count + newer.count,
    ...overrides,
  });
  const keyOf = (change: T, property: InspectProperty) => changeKey({ ...change, property });

  for (const change of incoming) {
    const radiusKey = keyOf(change, "border-radius");
    const radius = byKey.get(radiusKey);
    if (isCorner(change.property) && radius?.value) {
      const corners = cornersOf(radius.value);
      corners[CORNER_RADII.indexOf(change.property as (typeof CORNER_RADII)[number])] = change.value ?? "0";
      byKey.set(
        radiusKey,
        combine(radius, change, { property: "border-radius", value: borderRadiusOf(corners) }),
      );
      continue;
    }
    if (change.property === "border-radius") {
      // The shorthand supersedes the element's separate corners; their edits count towards it.
      let absorbed = 0;
      for (const corner of CORNER_RADII) {
        const key = keyOf(change, corner);
        absorbed += byKey.get(key)?.count ?? 0;
        byKey.delete(key);
      }
      const merged = radius ? combine(radius, change) : change;
      byKey.set(radiusKey, { ...merged, count: merged.count + absorbed });
      continue;
    }
    const key = changeKey(change);
    const current = byKey.get(key);
    byKey.set(key, current ? combine(current, change) : change);

    if (isCorner(change.property)) {
      const corners = CORNER_RADII.map((corner) => byKey.get(keyOf(change, corner)));
      if (corners.every((corner) => corner !== undefined)) {
        for (const corner of CORNER_RADII) byKey.delete(keyOf(change, corner));
        byKey.set(radiusKey, {
          ...change,
          id: undefined,
          property: "border-radius",
          value: borderRadiusOf(corners.map((corner) => corner.value ?? "0")),
          before: null,
          count: corners.reduce((sum, corner) => sum + corner.count, 0),
        });
      }
    }
  }
  return [...byKey.values()];
}

interface Reviewable {
  changeType: ChangeType;
  querySelector: string;
  property: InspectProperty;
  value: string | null;
  deviceSize: DeviceSize;
  isHidden: boolean;
  isResolved: boolean;
  before?: string | null | undefined;
  after?: RichText | null | undefined;
}

/** A page is fully resolved when all its changes are (§4); with none there is nothing left to do. */
export function isFullyResolved(changes: readonly { isResolved: boolean }[]): boolean {
  return changes.every((change) => change.isResolved);
}

const isOpen = (change: Reviewable) => !change.isResolved && !change.isHidden;

/**
 * The unresolved, visible style changes as a CSS patch for the page: one rule per element, default
 * device first, mobile ones inside `@media (max-width: 740px)`, each declaration `!important` so it wins
 * over the page's own CSS. A change whose selector or value could not be written safely is left out.
 */
export function cssPatch(changes: readonly Reviewable[]): string {
  const rules = (deviceSize: DeviceSize, indent: string) => {
    const bySelector = new Map<string, string[]>();
    for (const change of changes) {
      if (change.changeType !== "style" || change.deviceSize !== deviceSize || !isOpen(change)) continue;
      const selector = safeCssSelector(change.querySelector);
      if (!selector || change.value === null || !isValidStyleValue(change.property, change.value)) continue;
      const declarations = bySelector.get(selector) ?? [];
      bySelector.set(selector, declarations);
      declarations.push(`${indent}  ${change.property}: ${change.value} !important;`);
    }
    return [...bySelector].map(([selector, lines]) =>
      [`${indent}${selector} {`, ...lines, `${indent}}`].join("\n"),
    );
  };
  const desktop = rules("default", "");
  const mobile = rules("mobile", "  ");
  const blocks = [...desktop];
  if (mobile.length > 0)
    blocks.push(`@media (max-width: ${MOBILE_DEVICE_MAX_WIDTH}px) {\n${mobile.join("\n\n")}\n}`);
  return blocks.length === 0 ? "" : `${blocks.join("\n\n")}\n`;
}

/** The unresolved, visible text changes as a numbered before/after list (plain text). */
export function textChangesList(changes: readonly Reviewable[]): string {
  const indented = (text: string) => text.replace(/\r?\n/g, "\n           ");
  return changes
    .filter((change) => change.changeType === "text" && isOpen(change))
    .map((change, i) =>
      [
        `${i + 1}. ${change.querySelector}${change.deviceSize === "mobile" ? " (mobile)" : ""}`,
        `   Before: ${indented(change.before ?? "")}`,
        `   After:  ${indented(change.after?.text ?? "")}`,
      ].join("\n"),
    )
    .join("\n\n");
}

/** The downloadable `.css` file: the patch, then the text changes in a comment. */
export function changesCssFile(changes: readonly Reviewable[]): string {
  const css = cssPatch(changes);
  const texts = textChangesList(changes);
  // Only "*/" could end the comment early.
  const comment = texts ? `/*\nText changes\n\n${texts.replaceAll("*/", "* /")}\n*/\n` : "";
  return [css, comment].filter(Boolean).join("\n") || "/* No open style changes. */\n";
}
