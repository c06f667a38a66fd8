/**
 * The overlay's document access, bound to `document`: the in-page kit's page-safe references
 * (@redline/inpage), taken from the prototypes when the overlay starts, so neither an element whose name
 * shadows a document property (`<img name="createElement">`) nor a page replacing a method reaches us.
 */
import {
  bodyOf,
  caretRangeFromPoint,
  createElement,
  elementFromPoint,
  execCommand,
  fontsOf,
  hasFocus,
  listen,
  querySelectorAll,
  readyStateOf,
  rootOf,
  scrollingElementOf,
} from "@redline/inpage";

export const dom = {
  createElement: <K extends keyof HTMLElementTagNameMap>(tag: K): HTMLElementTagNameMap[K] =>
    createElement(document, tag),
  elementFromPoint: (x: number, y: number): Element | null => elementFromPoint(document, x, y),
  querySelectorAll: (selectors: string) => querySelectorAll(document, selectors),
  body: () => bodyOf(document),
  root: () => rootOf(document),
  scrollingElement: () => scrollingElementOf(document),
  readyState: () => readyStateOf(document),
  fonts: () => fontsOf(document),
  hasFocus: () => hasFocus(document),
  execCommand: (command: string, showUi?: boolean, value?: string): boolean =>
    execCommand(document, command, showUi, value),
  caretRangeFromPoint: (x: number, y: number): Range | null => caretRangeFromPoint(document, x, y),
  listen: (type: string, listener: EventListenerOrEventListenerObject, options?: AddEventListenerOptions) =>
    listen(document, type, listener, options),
};

export {
  createElement as createElementIn,
  currentScriptOf,
  querySelector as querySelectorIn,
} from "@redline/inpage";
