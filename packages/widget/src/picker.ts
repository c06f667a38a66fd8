/**
 * Picking what the report is about: hover highlights the element under the pointer, a click picks it, a
 * drag marks a region. The overlay lives in the widget's shadow root; the page gets no events meanwhile.
 */
import { h } from "./dom.ts";

export interface Picked {
  element: Element | null;
  /** In viewport CSS pixels. */
  region: { x: number; y: number; width: number; height: number } | null;
}

const DRAG_THRESHOLD = 6;

export function pick(root: ShadowRoot, host: Element): Promise<Picked | null> {
  return new Promise((resolve) => {
    const box = h("div", { className: "pick-box" });
    const hint = h(
      "div",
      { className: "pick-hint", role: "status" },
      "Click an element or drag to mark a region · Esc to cancel",
    );
    const layer = h(
      "div",
      { className: "pick-layer", "aria-label": "Pick an element or drag a region" },
      box,
      hint,
    );
    root.append(layer);

    const under = (x: number, y: number) =>
      document.elementsFromPoint(x, y).find((element) => element !== host && !host.contains(element)) ?? null;
    const show = (rect: { x: number; y: number; width: number; height: number } | null) => {
      box.style.display = rect ? "block" : "none";
      if (!rect) return;
      Object.assign(box.style, {
        left: `${rect.x}px`,
        top: `${rect.y}px`,
        width: `${rect.width}px`,
        height: `${rect.height}px`,
      });
    };
    let start: { x: number; y: number } | null = null;
    let dragging = false;
    const regionTo = (event: PointerEvent) => ({
      x: Math.min(start!.x, event.clientX),
      y: Math.min(start!.y, event.clientY),
      width: Math.abs(event.clientX - start!.x),
      height: Math.abs(event.clientY - start!.y),
    });
    const finish = (picked: Picked | null) => {
      layer.remove();
      removeEventListener("keydown", onKey, true);
      resolve(picked);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      finish(null);
    };
    addEventListener("keydown", onKey, true);
    layer.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      start = { x: event.clientX, y: event.clientY };
      dragging = false;
      layer.setPointerCapture?.(event.pointerId);
    });
    layer.addEventListener("pointermove", (event) => {
      if (
        start &&
        (dragging || Math.hypot(event.clientX - start.x, event.clientY - start.y) > DRAG_THRESHOLD)
      ) {
        dragging = true;
        show(regionTo(event));
        return;
      }
      const element = under(event.clientX, event.clientY);
      const rect = element?.getBoundingClientRect();
      show(rect ? { x: rect.left, y: rect.top, width: rect.width, height: rect.height } : null);
    });
    layer.addEventListener("pointerup", (event) => {
      if (!start) return;
      if (dragging) {
        finish({ element: null, region: regionTo(event) });
        return;
      }
      const element = under(event.clientX, event.clientY);
      const rect = element?.getBoundingClientRect();
      finish({
        element,
        region: rect ? { x: rect.left, y: rect.top, width: rect.width, height: rect.height } : null,
      });
    });
  });
}
