/**
 * Page-safe DOM access: the DOM methods and accessors the in-page kits call, taken from the prototypes
 * once, when our script starts, and called through bound references nothing in the page can reach.
 * Whatever the page does afterwards — `document.querySelector = …`, `Element.prototype.attachShadow = …`,
 * `EventTarget.prototype.addEventListener = …`, even `Function.prototype.call = …` — or names in its
 * markup (`<img name="createElement">` makes `document.createElement` that image) changes nothing for us.
 * What a page replaced before we started is what we take: see docs/adr/0020.
 *
 * One export per function, made by a call a bundler can see is pure, so a bundle keeps only what it
 * uses (the widget's first script has a budget of a few bytes).
 */

/** The interfaces whose prototypes we take from, by their global names. */
interface Prototypes {
  Document: Document;
  Element: Element;
  Node: Node;
  EventTarget: EventTarget;
  Event: Event;
  MouseEvent: MouseEvent;
  KeyboardEvent: KeyboardEvent;
  PointerEvent: PointerEvent;
  MessageEvent: MessageEvent;
  CustomElementRegistry: CustomElementRegistry;
}
type Uncurried<T, F> = F extends (...args: infer A) => infer R ? (self: T, ...args: A) => R : never;

/** `uncurry(f)(self, …args)` is `f.call(self, …args)` with `call` bound now: calling it looks nothing up. */
const uncurry = Function.prototype.bind.bind(Function.prototype.call) as (f: unknown) => never;

// Outside a browser (the kits' pure modules are also tested in Node) every prototype is an empty object:
// importing works, calling does not.
const globals = globalThis as unknown as Record<string, { prototype: never } | undefined>;
const proto = <P extends keyof Prototypes>(name: P): Prototypes[P] =>
  globals[name]?.prototype ?? ({} as never);

export const method = <P extends keyof Prototypes, K extends keyof Prototypes[P]>(
  name: P,
  key: K,
): Uncurried<Prototypes[P], Prototypes[P][K]> => uncurry(proto(name)[key]);
const getter = <P extends keyof Prototypes, K extends keyof Prototypes[P]>(
  name: P,
  key: K,
): ((self: Prototypes[P]) => Prototypes[P][K]) =>
  uncurry(Object.getOwnPropertyDescriptor(proto(name), key)?.get);

export const createElement = /* @__PURE__ */ method("Document", "createElement") as {
  <K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K): HTMLElementTagNameMap[K];
  (doc: Document, tag: string): HTMLElement;
};
export const createTextNode = /* @__PURE__ */ method("Document", "createTextNode");
export const querySelector = /* @__PURE__ */ method("Document", "querySelector") as <
  E extends Element = Element,
>(
  doc: Document,
  selectors: string,
) => E | null;
export const querySelectorAll = /* @__PURE__ */ method("Document", "querySelectorAll") as (
  doc: Document,
  selectors: string,
) => NodeListOf<Element>;
export const elementFromPoint = /* @__PURE__ */ method("Document", "elementFromPoint");
export const elementsFromPoint = /* @__PURE__ */ method("Document", "elementsFromPoint");
export const hasFocus = /* @__PURE__ */ method("Document", "hasFocus");
export const execCommand = /* @__PURE__ */ method("Document", "execCommand");
const caretRange = /* @__PURE__ */ method("Document", "caretRangeFromPoint");
/** Chromium and Safari only: elsewhere, null. */
export const caretRangeFromPoint = (doc: Document, x: number, y: number): Range | null =>
  "caretRangeFromPoint" in proto("Document") ? caretRange(doc, x, y) : null;
export const bodyOf = /* @__PURE__ */ getter("Document", "body");
export const rootOf = /* @__PURE__ */ getter("Document", "documentElement");
export const scrollingElementOf = /* @__PURE__ */ getter("Document", "scrollingElement");
export const readyStateOf = /* @__PURE__ */ getter("Document", "readyState");
export const fontsOf = /* @__PURE__ */ getter("Document", "fonts");
export const currentScriptOf = /* @__PURE__ */ getter("Document", "currentScript");

export const attachShadow = /* @__PURE__ */ method("Element", "attachShadow");
export const rectOf = /* @__PURE__ */ method("Element", "getBoundingClientRect");
export const setAttribute = /* @__PURE__ */ method("Element", "setAttribute");
export const removeElement = /* @__PURE__ */ method("Element", "remove");
export const setPointerCapture = /* @__PURE__ */ method("Element", "setPointerCapture");
export const contains = /* @__PURE__ */ method("Node", "contains");
export const appendChild = /* @__PURE__ */ method("Node", "appendChild") as <C extends Node>(
  parent: Node,
  child: C,
) => C;

export const listen = /* @__PURE__ */ method("EventTarget", "addEventListener");
export const unlisten = /* @__PURE__ */ method("EventTarget", "removeEventListener");
export const composedPath = /* @__PURE__ */ method("Event", "composedPath");
export const preventDefault = /* @__PURE__ */ method("Event", "preventDefault");
export const stopImmediatePropagation = /* @__PURE__ */ method("Event", "stopImmediatePropagation");
export const stopPropagation = /* @__PURE__ */ method("Event", "stopPropagation");
export const clientXOf = /* @__PURE__ */ getter("MouseEvent", "clientX");
export const clientYOf = /* @__PURE__ */ getter("MouseEvent", "clientY");
export const pointerIdOf = /* @__PURE__ */ getter("PointerEvent", "pointerId");
export const keyOf = /* @__PURE__ */ getter("KeyboardEvent", "key");
export const messageOrigin = /* @__PURE__ */ getter("MessageEvent", "origin");
export const messageSource = /* @__PURE__ */ getter("MessageEvent", "source");
export const messageData = /* @__PURE__ */ getter("MessageEvent", "data");
