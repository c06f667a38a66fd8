/**
 * Comment and inspect modes: the element under the pointer is outlined, and a click picks it at the
 * exact point. While picking, the page gets no presses or clicks and none of their default actions
 * (links do not navigate, forms do not submit, nothing takes focus or starts a selection or a drag);
 * our listeners sit on `window` in the capture phase, ahead of anything in the page. Hover still
 * reaches the page, so a menu that opens on :hover can be commented on. Our own pins pass through.
 */
import { type Anchor, describe } from "@redline/anchoring";
import {
  composedPath,
  listen,
  pageElementAt,
  preventDefault,
  rectOf,
  stopImmediatePropagation,
  unlisten,
} from "@redline/inpage";

export interface Pick {
  element: Element;
  anchor: Anchor;
  rect: DOMRect;
}

export interface PickerOptions {
  /** Events the page should get after all (inside the element being edited). */
  isPassThrough?: (event: Event) => boolean;
  /** A double click on a page element while picking. */
  onDoubleClick?: (element: Element, point: { x: number; y: number }) => void;
}

/** Swallowed while picking: their default actions are what a reviewer's click must not trigger. */
const BLOCKED = [
  "pointerdown",
  "pointerup",
  "mousedown",
  "mouseup",
  "dblclick",
  "auxclick",
  "dragstart",
  "selectstart",
  "submit",
] as const;

export class Picker {
  private hovered: Element | null = null;
  private pointer: { x: number; y: number } | null = null;
  private isActive = false;

  constructor(
    private readonly host: Element,
    private readonly highlight: HTMLElement,
    private readonly onPick: (pick: Pick) => void,
    private readonly requestFrame: () => void,
    private readonly options: PickerOptions = {},
  ) {}

  /** The page element under the pointer while picking. */
  get hoveredElement(): Element | null {
    return this.isActive ? this.hovered : null;
  }

  setActive(active: boolean): void {
    if (active === this.isActive) return;
    this.isActive = active;
    const options = { capture: true };
    // Through the kit: a page replacing addEventListener cannot keep the picker deaf.
    const toggle = active ? listen : unlisten;
    toggle(window, "pointermove", this.handleMove as EventListener, options);
    toggle(window, "pointerout", this.handleOut as EventListener, options);
    toggle(window, "click", this.handleClick as EventListener, options);
    for (const type of BLOCKED) toggle(window, type, this.handleBlocked, options);
    if (!active) this.setHovered(null);
  }

  /** Positions the outline; `origin` is our host's client position. Called once per frame at most. */
  layout(origin: { x: number; y: number }, scrolled: boolean): void {
    if (!this.isActive) return;
    // After a scroll another element is under a pointer that did not move.
    if (scrolled && this.pointer) {
      // The kit's hit test (the widget's picker's too); over our own UI, nothing is hovered.
      const { x, y } = this.pointer;
      this.hovered = pageElementAt(document, this.host, x, y, { beneathHost: false });
    }
    const element = this.hovered;
    const rect = element?.isConnected ? rectOf(element) : null;
    if (!rect || (rect.width === 0 && rect.height === 0)) {
      this.highlight.hidden = true;
      return;
    }
    const style = this.highlight.style;
    style.transform = `translate(${rect.left - origin.x}px, ${rect.top - origin.y}px)`;
    style.width = `${rect.width}px`;
    style.height = `${rect.height}px`;
    this.highlight.hidden = false;
  }

  private isOurs(event: Event): boolean {
    return composedPath(event).includes(this.host);
  }

  /** Not ours to stop: our own UI, a Cmd/Ctrl+click meant for the page, or what the owner lets through. */
  private isLetThrough(event: Event): boolean {
    if (this.isOurs(event)) return true;
    if (event instanceof MouseEvent && (event.ctrlKey || event.metaKey)) return true;
    return this.options.isPassThrough?.(event) ?? false;
  }

  private setHovered(element: Element | null): void {
    if (element === this.hovered && (element !== null || this.highlight.hidden)) return;
    this.hovered = element;
    if (!element) this.highlight.hidden = true;
    this.requestFrame();
  }

  private handleMove = (event: PointerEvent) => {
    this.pointer = { x: event.clientX, y: event.clientY };
    const target = event.target;
    this.setHovered(this.isOurs(event) || !(target instanceof Element) ? null : target);
  };

  private handleOut = (event: PointerEvent) => {
    // Leaving the document (into the parent window): nothing is under the pointer any more.
    if (event.relatedTarget === null) {
      this.pointer = null;
      this.setHovered(null);
    }
  };

  private handleBlocked = (event: Event) => {
    if (this.isLetThrough(event)) return;
    preventDefault(event);
    stopImmediatePropagation(event);
    if (event.type === "dblclick" && event.target instanceof Element) {
      const { clientX: x, clientY: y } = event as MouseEvent;
      this.options.onDoubleClick?.(event.target, { x, y });
    }
  };

  private handleClick = (event: MouseEvent) => {
    if (this.isLetThrough(event)) return;
    preventDefault(event);
    stopImmediatePropagation(event);
    const element = event.target;
    if (!(element instanceof Element)) return;
    let anchor: Anchor;
    try {
      anchor = describe(element, { x: event.clientX, y: event.clientY });
    } catch (error) {
      console.warn("[redline] could not describe the picked element", error);
      return;
    }
    this.onPick({ element, anchor, rect: rectOf(element) });
  };
}
