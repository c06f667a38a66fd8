/**
 * The edit panel (SPEC §2 edit mode, §3 lists): every control edits one property of the selected
 * element. Values shown are the unsaved edit when there is one, else what the page computed. Each
 * change is reported as `(property, value)` pairs; the workspace validates them and keeps the valid ones.
 */
import {
  BORDER_STYLES,
  colorToHex,
  FONT_SIZES,
  FONT_WEIGHT_OPTIONS,
  MOBILE_DEVICE_MAX_WIDTH,
  type OverlayToParent,
  pxOf,
} from "@redline/shared";
import { AlignCenter, AlignJustify, AlignLeft, AlignRight, ImageUp } from "lucide-react";
import { useId } from "react";
import { IconButton } from "../../components/icon-button.tsx";
import { IMAGE_TYPES } from "../../lib/files.ts";
import { ColorField, DraftInput, Field, SelectInput, SidesField } from "./edit-fields.tsx";

export type InspectedElement = OverlayToParent["inspect:selected"];
export type EditRequest = (
  pairs: readonly (readonly [property: string, value: string])[],
  options?: { coalesce?: boolean },
) => void;

const COMMON_FAMILIES = [
  "Inter",
  "Arial",
  "Helvetica",
  "Georgia",
  "Times New Roman",
  "Verdana",
  "Roboto",
  "Open Sans",
  "system-ui",
  "sans-serif",
  "serif",
  "monospace",
];

const ALIGNMENTS = [
  { value: "left", label: "Align left", icon: AlignLeft },
  { value: "center", label: "Align center", icon: AlignCenter },
  { value: "right", label: "Align right", icon: AlignRight },
  { value: "justify", label: "Justify", icon: AlignJustify },
] as const;

const SIZE_OPTIONS = FONT_SIZES.map((size) => ({ value: `${size}px`, label: `${size}px` }));
const WEIGHT_OPTIONS = FONT_WEIGHT_OPTIONS.map(({ weight, italic }) => ({
  value: `${weight}${italic ? " italic" : ""}`,
  label: `${weight}${italic ? " Italic" : ""}`,
}));
const BORDER_STYLE_OPTIONS = BORDER_STYLES.map((style) => ({ value: style, label: style }));

const SIDES = ["top", "right", "bottom", "left"] as const;
const cap = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const sidesOf = (prefix: "margin" | "padding") =>
  SIDES.map((side) => ({ label: `${cap(prefix)} ${side}`, property: `${prefix}-${side}` }));
const CORNERS = [
  { label: "Radius top left", property: "border-top-left-radius" },
  { label: "Radius top right", property: "border-top-right-radius" },
  { label: "Radius bottom right", property: "border-bottom-right-radius" },
  { label: "Radius bottom left", property: "border-bottom-left-radius" },
];

/** A typed number of pixels as a CSS length ("" and "-" are not lengths yet). */
const px = (typed: string) =>
  typed.trim() === "" || Number.isNaN(Number(typed)) ? "" : `${Number(typed)}px`;
const pxText = (value: string) => {
  const n = pxOf(value);
  return n === null ? "" : String(n);
};

export function EditPanel({
  element,
  currentValue,
  onEdit,
  onReplaceImage,
  isUploading,
}: {
  element: InspectedElement;
  /** The value a property shows: the unsaved edit, else the computed one. */
  currentValue(property: string): string;
  onEdit: EditRequest;
  onReplaceImage(file: File): void;
  isUploading: boolean;
}) {
  const listId = useId();
  const one = (property: string) => (value: string, options?: { coalesce?: boolean }) =>
    onEdit([[property, value]], options);
  const typedPx = (property: string) => (typed: string) =>
    onEdit([[property, px(typed)]], { coalesce: true });
  const numbers = (properties: readonly { property: string }[]) =>
    Object.fromEntries(properties.map(({ property }) => [property, pxText(currentValue(property))]));

  const fontSize = currentValue("font-size");
  const weight = currentValue("font-weight");
  const weightValue = `${weight === "normal" ? "400" : weight === "bold" ? "700" : weight}${
    currentValue("font-style") === "italic" ? " italic" : ""
  }`;
  const align = currentValue("text-align");
  const opacity = Number(currentValue("opacity") || "1");

  return (
    <div className="inspect-panel__form">
      <p className="inspect-panel__element">
        Editing <code>‹{element.tag}›</code>
        {element.deviceWidth <= MOBILE_DEVICE_MAX_WIDTH ? (
          <span className="tag tag--info">Mobile</span>
        ) : null}
      </p>

      {element.isImage ? (
        <section className="inspect-section" aria-label="Image">
          <label className="btn inspect-upload">
            <ImageUp size={16} aria-hidden />
            {isUploading ? "Uploading..." : "Replace image"}
            <input
              type="file"
              className="visually-hidden"
              aria-label="Replace image"
              accept={IMAGE_TYPES}
              disabled={isUploading}
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (file) onReplaceImage(file);
              }}
            />
          </label>
        </section>
      ) : null}

      <section className="inspect-section" aria-label="Text">
        <h3 className="inspect-section__title">Text</h3>
        <Field label="Font">
          <DraftInput
            label="Font family"
            list={listId}
            value={currentValue("font-family")}
            onValue={one("font-family")}
          />
          <datalist id={listId}>
            {COMMON_FAMILIES.map((family) => (
              <option key={family} value={family} />
            ))}
          </datalist>
        </Field>
        <Field label="Size and weight">
          <SelectInput label="Font size" value={fontSize} options={SIZE_OPTIONS} onValue={one("font-size")} />
          <SelectInput
            label="Font weight"
            value={weightValue}
            options={WEIGHT_OPTIONS}
            onValue={(chosen) => {
              const [next = "400", style] = chosen.split(" ");
              onEdit([
                ["font-weight", next],
                ["font-style", style === "italic" ? "italic" : "normal"],
              ]);
            }}
          />
        </Field>
        <ColorField
          label="Text colour"
          hex={colorToHex(currentValue("color")) ?? "#000000"}
          value={currentValue("color")}
          onValue={one("color")}
        />
        <Field label="Alignment">
          <fieldset className="inspect-toggles" aria-label="Text alignment">
            {ALIGNMENTS.map(({ value, label, icon: Icon }) => (
              <IconButton
                label={label}
                icon={Icon}
                key={value}
                title={label}
                aria-pressed={align === value || (value === "left" && align === "start")}
                onClick={() => onEdit([["text-align", value]])}
              />
            ))}
          </fieldset>
        </Field>
        <Field label="Line height and spacing">
          <DraftInput label="Line height" value={currentValue("line-height")} onValue={one("line-height")} />
          <DraftInput
            label="Letter spacing"
            type="number"
            step={0.1}
            value={pxText(currentValue("letter-spacing"))}
            onValue={typedPx("letter-spacing")}
          />
        </Field>
      </section>

      <section className="inspect-section" aria-label="Spacing">
        <h3 className="inspect-section__title">Spacing</h3>
        <SidesField
          label="Margin (px)"
          names={sidesOf("margin")}
          values={numbers(sidesOf("margin"))}
          onValue={(property, typed) => typedPx(property)(typed)}
        />
        <SidesField
          label="Padding (px)"
          names={sidesOf("padding")}
          values={numbers(sidesOf("padding"))}
          onValue={(property, typed) => typedPx(property)(typed)}
        />
      </section>

      <section className="inspect-section" aria-label="Border">
        <h3 className="inspect-section__title">Border</h3>
        <Field label="Style and width">
          <SelectInput
            label="Border style"
            value={currentValue("border-style") || "none"}
            options={BORDER_STYLE_OPTIONS}
            onValue={one("border-style")}
          />
          <DraftInput
            label="Border width"
            type="number"
            min={0}
            value={pxText(currentValue("border-width"))}
            onValue={typedPx("border-width")}
          />
        </Field>
        <ColorField
          label="Border colour"
          hex={colorToHex(currentValue("border-color")) ?? "#000000"}
          value={currentValue("border-color")}
          onValue={one("border-color")}
        />
        <SidesField
          label="Corner radius (px)"
          names={CORNERS}
          values={numbers(CORNERS)}
          onValue={(property, typed) => typedPx(property)(typed)}
        />
      </section>

      <section className="inspect-section" aria-label="Appearance">
        <h3 className="inspect-section__title">Appearance</h3>
        <ColorField
          label="Background colour"
          hex={colorToHex(currentValue("background-color")) ?? "#ffffff"}
          value={currentValue("background-color")}
          onValue={one("background-color")}
        />
        <Field label="Opacity and visibility">
          <input
            className="inspect-range"
            type="range"
            aria-label="Opacity"
            min={0}
            max={1}
            step={0.05}
            value={Number.isFinite(opacity) ? opacity : 1}
            onChange={(event) => onEdit([["opacity", event.target.value]], { coalesce: true })}
          />
          <select
            className="input inspect-field__input"
            aria-label="Visibility"
            value={currentValue("visibility") || "visible"}
            onChange={(event) => onEdit([["visibility", event.target.value]])}
          >
            <option value="visible">visible</option>
            <option value="hidden">hidden</option>
          </select>
        </Field>
      </section>
    </div>
  );
}
