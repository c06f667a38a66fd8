/**
 * Inspect mode inside the page: the selected element (clicked, or named by the app with
 * `inspect:select`) keeps an outline and is reported to the edit panel with its computed styles;
 * it can be edited in place (double click or Enter, see text-editor.ts) and moved with the arrow
 * keys (1 px, Shift 10 px, SPEC §9) as a live `translate`, reported once the keys rest. Cmd/Ctrl
 * while hovering shows distances to the selection. Cmd/Ctrl+Z and Cmd/Ctrl+J go to the app, which
 * owns the undo stack and the edit panel.
 */
import type { describe } from "@redline/anchoring";
import type { FrameAnchor } from "@redline/shared";
import { type Changes, imageOf } from "./changes.ts";
import { drawDistances, measureDistances } from "./distances.ts";
import { dom } from "./dom.ts";
import type { Messenger } from "./messenger.ts";
import { visibleText } from "./rich-text.ts";
import { STYLE_PROPERTIES } from "./style-properties.ts";
import { hasEditableText, letterOf, TextEditor } from "./text-editor.ts";

/** How long the arrow keys must rest before a move is reported. */
export const MOVE_SETTLE_MS = 300;
const MAX_TEXT = 10_000;
const MAX_VALUE = 2000;

interface Selected {
  element: Element;
  anchor: FrameAnchor;
}

interface Move {
  element: Element;
  anchor: FrameAnchor;
  x: number;
  y: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export interface InspectorUi {
  selection: HTMLElement;
  distances: HTMLElement;
}

/** A described anchor as plain data (the protocol's copy of it). */
export const toFrameAnchor = (anchor: ReturnType<typeof describe>): FrameAnchor => ({
  ...anchor,
  fingerprint: { ...anchor.fingerprint },
});

export class Inspector {
  private selected: Selected | null = null;
  private move: Move | null = null;
  private isActive = false;
  private isModifierDown = false;
  readonly editor: TextEditor;

  constructor(
    private readonly ui: InspectorUi,
    private readonly changes: Changes,
    private readonly post: Messenger["post"],
    private readonly requestFrame: () => void,
    /** The page element under the pointer while picking. */
    private readonly hovered: () => Element | null,
  ) {
    this.editor = new TextEditor(changes, (element, before, after) => {
      const anchor = this.selected?.element === element ? this.selected.anchor : null;
      if (!anchor) return;
      this.post("inspect:text", { anchor, deviceWidth: window.innerWidth, before, after });
      this.requestFrame();
    });
    const capture = { capture: true };
    window.addEventListener("keydown", this.handleKeyDown, capture);
    window.addEventListener("keyup", this.handleKeyUp, capture);
    window.addEventListener("pointermove", this.handlePointer, { capture: true, passive: true });
    window.addEventListener("blur", () => this.setModifier(false));
    // The picker keeps presses from the page, which also keeps the keyboard from coming to this
    // frame; the arrow keys, Escape and the shortcuts need it.
    window.addEventListener("pointerdown", this.handlePointerDown, capture);
  }

  /** Inspect mode on or off; leaving it ends editing and moving and drops the selection. */
  setActive(active: boolean): void {
    this.isActive = active;
    if (!active) this.clear(false);
  }

  /** A click picked `element` in inspect mode. */
  select(element: Element, anchor: FrameAnchor): void {
    if (this.editor.element && this.editor.element !== element) this.editor.end();
    if (this.move && this.move.element !== element) this.flushMove();
    this.changes.remember(anchor, element);
    this.selected = { element, anchor };
    this.postSelected();
    this.requestFrame();
  }

  /** `inspect:select`: the app names the element (or clears the selection with null). */
  selectAnchor(anchor: FrameAnchor | null): void {
    if (!anchor) {
      this.clear(false);
      return;
    }
    const element = this.changes.find(anchor);
    if (!element) {
      this.clear(true);
      return;
    }
    const rect = element.getBoundingClientRect();
    if (rect.bottom < 0 || rect.top > window.innerHeight || rect.right < 0 || rect.left > window.innerWidth)
      element.scrollIntoView({ block: "center", inline: "nearest" });
    this.select(element, anchor);
  }

  /** After changes were applied: the panel hears about the selected element again if it changed. */
  afterApply(changed: Set<Element>): void {
    if (this.selected && changed.has(this.selected.element)) this.postSelected();
    this.requestFrame();
  }

  /** A double click in inspect mode: edit the selected element's text where it was clicked. */
  handleDoubleClick(element: Element, point: { x: number; y: number }): void {
    const selected = this.selected?.element;
    if (this.isActive && selected?.contains(element) && hasEditableText(selected)) {
      this.editor.start(selected, point);
      this.requestFrame();
    }
  }

  /** Places the outline and the distances; `origin` is our host's client position. */
  layout(origin: { x: number; y: number }): void {
    const { selection, distances } = this.ui;
    const element = this.selected?.element;
    const rect = element?.isConnected ? element.getBoundingClientRect() : null;
    if (!rect || (rect.width === 0 && rect.height === 0)) {
      selection.hidden = true;
    } else {
      const style = selection.style;
      style.transform = `translate(${rect.left - origin.x}px, ${rect.top - origin.y}px)`;
      style.width = `${rect.width}px`;
      style.height = `${rect.height}px`;
      selection.classList.toggle("is-editing", this.editor.element !== null);
      selection.hidden = false;
    }
    const hovered = this.isModifierDown && rect ? this.hovered() : null;
    if (rect && hovered && hovered !== element && hovered.isConnected) {
      drawDistances(distances, measureDistances(rect, hovered.getBoundingClientRect()), origin);
    } else if (!distances.hidden) {
      drawDistances(distances, [], origin);
    }
  }

  private clear(shouldPost: boolean): void {
    this.editor.end();
    this.flushMove();
    const hadSelection = this.selected !== null;
    this.selected = null;
    if (shouldPost && (hadSelection || this.isActive)) this.post("inspect:cleared", {});
    this.requestFrame();
  }

  private postSelected(): void {
    const selected = this.selected;
    if (!selected) return;
    const { element, anchor } = selected;
    const rect = element.getBoundingClientRect();
    const computed = getComputedStyle(element);
    const styles: Record<string, string> = {};
    for (const property of STYLE_PROPERTIES)
      styles[property] = computed.getPropertyValue(property).slice(0, MAX_VALUE);
    const text = visibleText(element);
    this.post("inspect:selected", {
      anchor,
      rect: { x: rect.x, y: rect.y, width: rect.width, height: rect.height },
      deviceWidth: window.innerWidth,
      tag: element.localName.slice(0, 64),
      isImage: imageOf(element) !== null,
      hasText: hasEditableText(element),
      text: text.slice(0, MAX_TEXT),
      styles,
    });
  }

  private moveBy(dx: number, dy: number): void {
    const selected = this.selected!;
    if (!this.move || this.move.element !== selected.element) {
      this.flushMove();
      const [x = "0", y = "0"] = getComputedStyle(selected.element).translate.split(" ");
      this.move = { ...selected, x: pxOf(x), y: pxOf(y), timer: undefined };
    }
    const move = this.move;
    move.x += dx;
    move.y += dy;
    this.changes.setLive(move.element, "translate", `${move.x}px ${move.y}px`);
    clearTimeout(move.timer);
    move.timer = setTimeout(() => this.flushMove(), MOVE_SETTLE_MS);
    this.requestFrame();
  }

  /** Reports the move in progress, if any. */
  private flushMove(): void {
    const move = this.move;
    if (!move) return;
    this.move = null;
    clearTimeout(move.timer);
    this.post("inspect:move", {
      anchor: move.anchor,
      deviceWidth: window.innerWidth,
      translate: { x: move.x, y: move.y },
    });
    this.changes.markPosted(move.element);
  }

  private setModifier(isDown: boolean): void {
    if (isDown === this.isModifierDown) return;
    this.isModifierDown = isDown;
    this.requestFrame();
  }

  private handlePointer = (event: PointerEvent) => {
    this.setModifier(event.ctrlKey || event.metaKey);
  };

  private handlePointerDown = () => {
    if (this.isActive && !dom.hasFocus()) window.focus();
  };

  private handleKeyUp = (event: KeyboardEvent) => {
    if (event.key === "Control" || event.key === "Meta") this.setModifier(event.ctrlKey || event.metaKey);
  };

  private handleKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Control" || event.key === "Meta") {
      this.setModifier(true);
      return;
    }
    if (this.editor.handleKey(event) || this.editor.element) return;
    const isMod = (event.ctrlKey || event.metaKey) && !event.altKey;
    const letter = letterOf(event);
    if (isMod && letter === "z" && !event.shiftKey && !isEditable(event.target)) {
      event.preventDefault();
      this.post("inspect:shortcut", { action: "undo" });
      return;
    }
    if (isMod && letter === "j" && !event.shiftKey) {
      event.preventDefault();
      this.post("inspect:shortcut", { action: "toggle-edit" });
      return;
    }
    if (!this.isActive || !this.selected || isMod || event.altKey) return;
    const step = event.shiftKey ? 10 : 1;
    const arrow = ARROWS[event.key];
    if (arrow) {
      event.preventDefault();
      this.moveBy(arrow[0] * step, arrow[1] * step);
    } else if (event.key === "Escape") {
      event.preventDefault();
      this.clear(true);
    } else if (event.key === "Enter" && hasEditableText(this.selected.element)) {
      event.preventDefault();
      this.editor.start(this.selected.element, null);
      this.requestFrame();
    }
  };
}

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

const pxOf = (value: string) => (value.endsWith("px") ? Number.parseFloat(value) || 0 : 0);

/** A form field or editable element of the page, which keeps its own undo. */
function isEditable(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)
  );
}
