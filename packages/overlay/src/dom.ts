/**
 * The document APIs the overlay uses, taken from the prototypes rather than looked up on `document`:
 * a captured page may hold elements whose name or id shadows a document property (named access —
 * `<img name="createElement">` makes `document.createElement` that image). The sanitiser renames such
 * names at capture; this keeps the overlay safe even for a snapshot that still has one.
 */
const proto = Document.prototype;
const getter = <T>(name: keyof Document) =>
  Object.getOwnPropertyDescriptor(proto, name)!.get as (this: Document) => T;
const bodyOf = getter<HTMLElement | null>("body");
const rootOf = getter<HTMLElement>("documentElement");
const scrollingElementOf = getter<Element | null>("scrollingElement");
const readyStateOf = getter<DocumentReadyState>("readyState");
const fontsOf = getter<FontFaceSet | undefined>("fonts");
const addListener = EventTarget.prototype.addEventListener;

export const dom = {
  createElement: <K extends keyof HTMLElementTagNameMap>(tag: K): HTMLElementTagNameMap[K] =>
    proto.createElement.call(document, tag) as HTMLElementTagNameMap[K],
  elementFromPoint: (x: number, y: number): Element | null => proto.elementFromPoint.call(document, x, y),
  body: (): HTMLElement | null => bodyOf.call(document),
  root: (): HTMLElement => rootOf.call(document),
  scrollingElement: (): Element | null => scrollingElementOf.call(document),
  readyState: (): DocumentReadyState => readyStateOf.call(document),
  fonts: (): FontFaceSet | undefined => fontsOf.call(document),
  hasFocus: (): boolean => proto.hasFocus.call(document),
  execCommand: (command: string, showUi?: boolean, value?: string): boolean =>
    proto.execCommand.call(document, command, showUi, value),
  caretRangeFromPoint: (x: number, y: number): Range | null =>
    (
      proto as Document & { caretRangeFromPoint?: (x: number, y: number) => Range | null }
    ).caretRangeFromPoint?.call(document, x, y) ?? null,
  listen: (
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: AddEventListenerOptions | boolean,
  ) => addListener.call(document, type, listener, options),
};

/** `doc.createElement(tag)`, safe from a page element named "createElement". */
export function createElementIn<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
): HTMLElementTagNameMap[K];
export function createElementIn(doc: Document, tag: string): HTMLElement;
export function createElementIn(doc: Document, tag: string): HTMLElement {
  return proto.createElement.call(doc, tag);
}

/** `doc.currentScript`, safe from a page element named "currentScript". */
export const currentScriptOf = (doc: Document) =>
  getter<HTMLOrSVGScriptElement | null>("currentScript").call(doc);

/** `doc.querySelector(selector)`, safe from a page element named "querySelector". */
export const querySelectorIn = <E extends Element = Element>(doc: Document, selector: string): E | null =>
  proto.querySelector.call(doc, selector) as E | null;
