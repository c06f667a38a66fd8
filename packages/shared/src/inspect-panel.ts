/**
 * The edit panel's pure rules (inspect mode, SPEC §2–§4): turning one edit of the panel or the page into
 * an unsaved change, the undo stack of those edits, what the page shows (saved visible changes merged
 * with unsaved ones), and the activity panel's grouping and wording.
 *
 * Unsaved edits are kept as a stack of steps (one step = what one gesture changed, e.g. a weight with its
 * italic); the unsaved changes are the steps merged with `mergeChanges`, so undo is dropping the last step.
 */
import { type DeviceSize, deviceSizeOf } from "./comments.ts";
import type { FrameAnchor, FrameChange } from "./frame-messages.ts";
import {
  type ChangeType,
  changeKey,
  INSPECT_IMAGE_PATH,
  type InspectChange,
  type InspectChangeInput,
  type InspectProperty,
  isValidStyleValue,
  mergeChanges,
  type RichText,
  type StyleProperty,
} from "./inspect.ts";

/** The element an edit applies to: the selection's anchor and the viewer's width at the time. */
export interface EditTarget {
  anchor: FrameAnchor;
  deviceWidth: number;
}

/** One unsaved change, in the shape `mergeChanges` works on. */
export interface PendingEdit {
  id?: undefined;
  changeType: ChangeType;
  anchor: FrameAnchor;
  querySelector: string;
  deviceWidth: number;
  deviceSize: DeviceSize;
  property: InspectProperty;
  value: string | null;
  before?: string | null | undefined;
  after?: RichText | null | undefined;
  imageDimensions?: { width: number; height: number } | null | undefined;
  count: number;
}

/** What one gesture changed; undo removes a whole step. */
export type EditStep = readonly PendingEdit[];

/** The API's device widths are whole pixels of at least 100. */
const widthOf = (deviceWidth: number) => Math.min(10_000, Math.max(100, Math.round(deviceWidth)));

function base(target: EditTarget) {
  const deviceWidth = widthOf(target.deviceWidth);
  return {
    anchor: target.anchor,
    querySelector: target.anchor.querySelector,
    deviceWidth,
    deviceSize: deviceSizeOf(deviceWidth),
    count: 1,
  };
}

/** A style edit, or null when the value is not valid for the property (nothing is applied then). */
export function styleEdit(target: EditTarget, property: string, value: string): PendingEdit | null {
  const trimmed = value.trim();
  if (!isValidStyleValue(property, trimmed)) return null;
  return { ...base(target), changeType: "style", property: property as StyleProperty, value: trimmed };
}

/** An in-place text edit; null when the text did not change and carries no marks. */
export function textEdit(target: EditTarget, before: string, after: RichText): PendingEdit | null {
  if (after.text === before && after.marks.length === 0) return null;
  return { ...base(target), changeType: "text", property: "text", value: null, before, after };
}

/** A replaced image (its uploaded path on the content origin). */
export function imageEdit(
  target: EditTarget,
  path: string,
  imageDimensions?: { width: number; height: number },
): PendingEdit | null {
  if (!INSPECT_IMAGE_PATH.test(path)) return null;
  return { ...base(target), changeType: "image", property: "src", value: path, imageDimensions };
}

/** A move with the arrow keys: the element's total offset as `translate`. */
export function moveEdit(target: EditTarget, offset: { x: number; y: number }): PendingEdit | null {
  const px = (n: number) => (Math.round(n) === 0 ? "0" : `${Math.round(n)}px`);
  return styleEdit(target, "translate", `${px(offset.x)} ${px(offset.y)}`);
}

/**
 * Adds a step. With `coalesce` (typing into one field), a step that changes exactly the same keys as
 * the last one replaces it, so undo goes back to before the typing rather than one keystroke.
 */
export function pushStep(
  stack: readonly EditStep[],
  step: EditStep,
  { coalesce = false }: { coalesce?: boolean } = {},
): EditStep[] {
  if (step.length === 0) return [...stack];
  const last = stack.at(-1);
  const keys = (entries: EditStep) => entries.map(changeKey).sort().join("\n");
  if (coalesce && last && keys(last) === keys(step)) return [...stack.slice(0, -1), step];
  return [...stack, step];
}

/** Undo: the stack without its last step. */
export function undoStep(stack: readonly EditStep[]): EditStep[] {
  return stack.slice(0, -1);
}

/** The unsaved changes: every step's edits merged in order (§4). */
export function pendingChanges(stack: readonly EditStep[]): PendingEdit[] {
  return mergeChanges<PendingEdit>([], stack.flat());
}

/** How many unsaved changes there are (what the Save button counts). */
export function pendingCount(stack: readonly EditStep[]): number {
  return pendingChanges(stack).length;
}

/** An unsaved change as the API takes it (`POST /api/versions/{id}/changes`). */
export function toChangeInput(edit: PendingEdit): InspectChangeInput {
  const target = { anchor: edit.anchor, deviceWidth: edit.deviceWidth };
  if (edit.changeType === "text")
    return {
      changeType: "text",
      ...target,
      before: edit.before ?? "",
      after: edit.after ?? { text: "", marks: [] },
    };
  if (edit.changeType === "image")
    return {
      changeType: "image",
      ...target,
      value: edit.value ?? "",
      ...(edit.imageDimensions ? { imageDimensions: edit.imageDimensions } : {}),
    };
  return {
    changeType: "style",
    ...target,
    property: edit.property as StyleProperty,
    value: edit.value ?? "",
  };
}

type Shown = Pick<
  InspectChange,
  "id" | "anchor" | "changeType" | "querySelector" | "property" | "value" | "after" | "deviceSize" | "count"
> & { isHidden: boolean; before?: string | null };

/**
 * What the page shows (`inspect:apply`): the saved changes that are not hidden, with the unsaved edits
 * merged over them (an unsaved edit of the same element, property and device wins).
 */
export function frameChangesOf(saved: readonly Shown[], pending: readonly PendingEdit[]): FrameChange[] {
  type Entry = Omit<Shown, "id" | "isHidden"> & { id?: string | undefined };
  const visible: Entry[] = saved.filter((change) => !change.isHidden);
  const merged = mergeChanges<Entry>(
    visible,
    pending.map((edit) => ({ ...edit, after: edit.after ?? null })),
  );
  return merged.map((change) => ({
    id: change.id ?? `pending:${changeKey(change)}`.slice(0, 100),
    anchor: change.anchor,
    changeType: change.changeType,
    property: change.property,
    value: change.value,
    after: change.after ?? null,
    deviceSize: change.deviceSize,
  }));
}

// --- the activity panel ---------------------------------------------------------------------------

export interface ActivityGroup<T> {
  key: string;
  author: T extends { author: infer A } ? A : never;
  groupCreatedAt: string;
  changes: T[];
}

/** Saved changes grouped by who saved them and when (one save = one group), newest group first. */
export function activityGroups<
  T extends {
    author: { uid: string | null; displayName: string };
    groupCreatedAt: string;
    createdAt: string;
  },
>(changes: readonly T[]): ActivityGroup<T>[] {
  const groups = new Map<string, ActivityGroup<T>>();
  for (const change of changes) {
    const key = JSON.stringify([change.author.uid ?? change.author.displayName, change.groupCreatedAt]);
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        author: change.author as ActivityGroup<T>["author"],
        groupCreatedAt: change.groupCreatedAt,
        changes: [],
      };
      groups.set(key, group);
    }
    group.changes.push(change);
  }
  const list = [...groups.values()];
  for (const group of list) group.changes.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return list.sort((a, b) => b.groupCreatedAt.localeCompare(a.groupCreatedAt));
}

/** The compound selectors of a selector, split at combinators outside brackets, parentheses and quotes. */
function compoundsOf(selector: string): string[] {
  const parts: string[] = [];
  let current = "";
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < selector.length; i++) {
    const char = selector[i]!;
    if (char === "\\") {
      current += char + (selector[i + 1] ?? "");
      i++;
    } else if (quote) {
      if (char === quote) quote = null;
      current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      current += char;
    } else if (char === "[" || char === "(") {
      depth++;
      current += char;
    } else if (char === "]" || char === ")") {
      depth = Math.max(0, depth - 1);
      current += char;
    } else if (depth === 0 && /[\s>+~]/.test(char)) {
      if (current) parts.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  if (current) parts.push(current);
  return parts;
}

/** A short name for an element: the last step of its selector (`h1`, `p.lead`, `img[alt="A"]`), ≤ 40 chars. */
export function elementLabel(querySelector: string): string {
  const last = compoundsOf(querySelector.trim()).at(-1) ?? querySelector;
  return last.length > 40 ? `${last.slice(0, 39)}…` : last;
}

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** One line for a change: `font-size: 24px`, `text: "Old" → "New"`, `image: replaced`. */
export function describeChange(change: {
  changeType: ChangeType;
  property: InspectProperty;
  value: string | null;
  before?: string | null | undefined;
  after?: RichText | null | undefined;
}): string {
  if (change.changeType === "text")
    return `text: “${clip(change.before ?? "", 40)}” → “${clip(change.after?.text ?? "", 40)}”`;
  if (change.changeType === "image") return "image: replaced";
  return `${change.property}: ${change.value ?? ""}`;
}

// --- reading computed values for the controls ----------------------------------------------------

/** A computed colour (`rgb(…)`, `rgba(…)`, `#abc`) as `#rrggbb` for a colour input, or null. */
export function colorToHex(value: string | undefined | null): string | null {
  if (!value) return null;
  const hex = value.trim().match(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i);
  if (hex) {
    const digits = hex[1]!;
    return `#${digits.length === 3 ? [...digits].map((d) => d + d).join("") : digits}`.toLowerCase();
  }
  const rgb = value.match(/^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i);
  if (!rgb) return null;
  return `#${rgb
    .slice(1, 4)
    .map((part) =>
      Math.max(0, Math.min(255, Math.round(Number(part))))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** The number of pixels in a `px` value (`"16px"` → 16, `"0"` → 0), or null. */
export function pxOf(value: string | undefined | null): number | null {
  if (value === undefined || value === null) return null;
  const match = value.trim().match(/^(-?\d+(?:\.\d+)?)(?:px)?$/);
  return match ? Math.round(Number(match[1]) * 100) / 100 : null;
}
