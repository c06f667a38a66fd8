/** Helpers for the inspect-mode tests: pick elements, build changes, read the selection outline. */
import type { Message, View } from "./harness.ts";

/** Clicks the middle (or a fraction) of an element of the snapshot. */
export async function clickOn(view: View, selector: string, fraction = { x: 0.5, y: 0.5 }): Promise<void> {
  const box = await view.rect(selector);
  const point = await view.toPage({ x: box.x + box.width * fraction.x, y: box.y + box.height * fraction.y });
  await view.page.mouse.click(point.x, point.y);
}

/** Selects an element by clicking it in inspect mode; its inspect:selected message. */
export async function select(view: View, selector: string): Promise<Message> {
  const since = await view.mark();
  await clickOn(view, selector);
  return view.waitFor("inspect:selected", since);
}

/** Opens the inspect fixture in inspect mode. */
export async function openInspect(
  view: Promise<View>,
  mode: "inspect" | "browse" = "inspect",
): Promise<View> {
  const opened = await view;
  await opened.waitFor("overlay:ready");
  await opened.send("overlay:mode", { mode });
  return opened;
}

let ids = 0;
export function styleChange(anchor: unknown, property: string, value: string, deviceSize = "default") {
  return { id: `c${++ids}`, anchor, changeType: "style", property, value, after: null, deviceSize };
}
export function textChange(
  anchor: unknown,
  after: { text: string; marks: unknown[] },
  deviceSize = "default",
) {
  return { id: `c${++ids}`, anchor, changeType: "text", property: "text", value: null, after, deviceSize };
}
export function imageChange(anchor: unknown, value: string, deviceSize = "default") {
  return { id: `c${++ids}`, anchor, changeType: "image", property: "src", value, after: null, deviceSize };
}

/** The selection outline's box in the frame, or null when hidden. */
export function selectionBox(view: View) {
  return view.frame.evaluate(() => {
    const element = document
      .querySelector("redline-overlay")
      ?.shadowRoot?.querySelector<HTMLElement>(".selection");
    if (!element || element.hidden) return null;
    const { x, y, width, height } = element.getBoundingClientRect();
    return { x, y, width, height, isEditing: element.classList.contains("is-editing") };
  });
}
