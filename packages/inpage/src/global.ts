/**
 * A kit's one global (`__redlineOverlay`, `__redlineWidget`), which also says the kit has started: an own,
 * read-only, non-configurable property of window. Only window's own properties are asked: an element
 * whose id or name is the global's name shows through window's named properties, further up its
 * prototype chain, and never counts (it used to: the overlay then believed it had started and did not).
 */

// Taken at start: a page replacing them later changes nothing.
const { getOwnPropertyDescriptor: ownDescriptor, defineProperty, freeze } = Object;

/** Whether a kit of this name has started in this window already. */
export const isStarted = (name: string): boolean => ownDescriptor(window, name) !== undefined;

/** Sets the global `name` for good (read-only and non-configurable, defineProperty's defaults), frozen. */
export function setGlobal<G extends object>(name: string, value: G): void {
  defineProperty(window, name, { value: freeze(value) });
}
