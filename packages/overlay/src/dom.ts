/**
 * The document APIs the overlay uses, taken from the prototypes rather than looked up on `document`:
 * a captured page may hold elements whose name or id shadows a document property (named access —
 * `<img name="createElement">` makes `document.createElement` that image). The sanitiser renames such
 * names at capture; this keeps the overlay safe even for a snapshot that still has one.
 */
// Read when first used, not when imported: the overlay's pure modules are also tested outside a browser.
let cachedProto: Document | undefined;
const protoOf = () => {
  cachedProto ??= Document.prototype;
  return cachedProto;
};
const getter = <T>(name: keyof Document) => {
  let get: ((this: Document) => T) | undefined;
  return (doc: Document): T => {
    get ??= Object.getOwnPropertyDescriptor(protoOf(), name)!.get as (this: Document) => T;
    return get.call(doc);
  };
};
const bodyOf = getter<HTMLElement | null>("body");
const rootOf = getter<HTMLElement>("documentElement");
const scrollingElementOf = getter<Element | null>("scrollingElement");
const readyStateOf = getter<DocumentReadyState>("readyState");
const fontsOf = getter<FontFaceSet | undefined>("fonts");
const currentScriptGetter = getter<HTMLOrSVGScriptElement | null>("currentScript");

export const dom = {
  createElement: <K extends keyof HTMLElementTagNameMap>(tag: K): HTMLElementTagNameMap[K] =>
    protoOf().createElement.call(document, tag) as HTMLElementTagNameMap[K],
  elementFromPoint: (x: number, y: number): Element | null => protoOf().elementFromPoint.call(document, x, y),
  querySelectorAll: (selectors: string): Element[] =>
    Array.from(protoOf().querySelectorAll.call(document, selectors)),
  body: (): HTMLElement | null => bodyOf(document),
  root: (): HTMLElement => rootOf(document),
  scrollingElement: (): Element | null => scrollingElementOf(document),
  readyState: (): DocumentReadyState => readyStateOf(document),
  fonts: (): FontFaceSet | undefined => fontsOf(document),
  hasFocus: (): boolean => protoOf().hasFocus.call(document),
  execCommand: (command: string, showUi?: boolean, value?: string): boolean =>
    protoOf().execCommand.call(document, command, showUi, value),
  caretRangeFromPoint: (x: number, y: number): Range | null =>
    (
      protoOf() as Document & { caretRangeFromPoint?: (x: number, y: number) => Range | null }
    ).caretRangeFromPoint?.call(document, x, y) ?? null,
  listen: (
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: AddEventListenerOptions | boolean,
  ) => EventTarget.prototype.addEventListener.call(document, type, listener, options),
};

/** `doc.createElement(tag)`, safe from a page element named "createElement". */
export function createElementIn<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
): HTMLElementTagNameMap[K];
export function createElementIn(doc: Document, tag: string): HTMLElement;
export function createElementIn(doc: Document, tag: string): HTMLElement {
  return protoOf().createElement.call(doc, tag);
}

/** `doc.currentScript`, safe from a page element named "currentScript". */
export const currentScriptOf = (doc: Document) => currentScriptGetter(doc);

/** `doc.querySelector(selector)`, safe from a page element named "querySelector". */
export const querySelectorIn = <E extends Element = Element>(doc: Document, selector: string): E | null =>
  protoOf().querySelector.call(doc, selector) as E | null;
