/**
 * Inspect changes shown in the page (`inspect:apply`, in inspect mode and the app's preview). Each
 * change's element is found once per anchor (`anchor()` from @redline/anchoring, cached by the
 * anchor's JSON like the pins); then every element gets what the current set asks of it at this
 * width — styles inline with !important, text as rich text, images as a new `src` — and every
 * element the set no longer names gets back exactly what it had: its `style` attribute string, its
 * own child nodes (the same nodes, not copies), its `src`/`srcset`.
 *
 * A move in progress is a "live" style on top of the set until the app has been told about it.
 */
import { type Anchor, anchor as findAnchor } from "@redline/anchoring";
import type { FrameAnchor, FrameChange } from "@redline/shared";
import { type RichText, renderRichText, visibleText } from "./rich-text.ts";
import { MOBILE_MAX_WIDTH, STYLE_PROPERTIES } from "./style-properties.ts";

interface Wanted {
  styles: Map<string, string>;
  text: RichText | null;
  image: string | null;
}

interface Original {
  /** The `style` attribute as it was (null: none). */
  style: string | null;
  /** The element's own child nodes while a text change or an edit replaced them. */
  content: Node[] | null;
  /** innerText before the content was first replaced. */
  text: string;
  /** What the content shows now: a rich text's JSON, or "edited" after in-place editing. */
  contentKey: string | null;
  image: ImageOriginal | null;
}

interface ImageOriginal {
  img: HTMLImageElement;
  src: string | null;
  srcset: string | null;
  sources: [HTMLSourceElement, string | null][];
}

/** JSON with sorted keys: the same anchor always gives the same key, whatever its key order. */
export function anchorKey(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

export const isMobileWidth = () => window.innerWidth <= MOBILE_MAX_WIDTH;

export class Changes {
  private changes: FrameChange[] = [];
  private cache = new Map<string, Element | null>();
  private originals = new Map<Element, Original>();
  private live = new Map<Element, { styles: Map<string, string>; isPosted: boolean }>();
  private wasMobile = isMobileWidth();
  /** The element being edited in place: its content is left alone until the edit ends. */
  editing: Element | null = null;

  /** The element an anchor names in this document, or null. */
  find(anchor: FrameAnchor): Element | null {
    const key = anchorKey(anchor);
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached?.isConnected ? cached : null;
    let element: Element | null = null;
    try {
      element = findAnchor(document, anchor as unknown as Anchor)?.element ?? null;
    } catch (error) {
      console.warn("[redline] could not anchor a change", error);
    }
    this.cache.set(key, element);
    return element;
  }

  /** An anchor we described ourselves: its element is known, no need to search for it. */
  remember(anchor: FrameAnchor, element: Element): void {
    this.cache.set(anchorKey(anchor), element);
  }

  /** Replaces the set; returns the elements whose styles, content or image changed. */
  set(changes: FrameChange[]): Set<Element> {
    this.changes = changes;
    for (const [element, live] of this.live) if (live.isPosted) this.live.delete(element);
    return this.render();
  }

  /** After a resize: re-applies when the width crossed the mobile breakpoint. */
  handleResize(): Set<Element> {
    const isMobile = isMobileWidth();
    if (isMobile === this.wasMobile) return new Set();
    return this.render();
  }

  /** A style on top of the set (a move while the arrow keys are pressed). */
  setLive(element: Element, property: string, value: string): void {
    const live = this.live.get(element) ?? { styles: new Map(), isPosted: false };
    live.styles.set(property, value);
    live.isPosted = false;
    this.live.set(element, live);
    this.render();
  }

  /** The app was told about the live styles: the next set replaces them. */
  markPosted(element: Element): void {
    const live = this.live.get(element);
    if (live) live.isPosted = true;
  }

  /**
   * Before editing an element in place: its own nodes are put aside (restored when no text change
   * remains) and the editor works on copies. Returns the element's original text.
   */
  beginEdit(element: HTMLElement): string {
    const original = this.originalOf(element);
    if (!original.content) {
      original.content = [...element.childNodes];
      element.replaceChildren(...original.content.map((node) => node.cloneNode(true)));
    }
    original.contentKey = "edited";
    return original.text;
  }

  /** Applies the set at the current width; returns the elements that changed. */
  render(): Set<Element> {
    const isMobile = isMobileWidth();
    this.wasMobile = isMobile;
    const wanted = new Map<Element, Wanted>();
    const want = (element: Element) => {
      const entry = wanted.get(element) ?? { styles: new Map<string, string>(), text: null, image: null };
      wanted.set(element, entry);
      return entry;
    };
    // Default first, so mobile changes overwrite them at mobile widths.
    for (const deviceSize of ["default", "mobile"] as const) {
      if (deviceSize === "mobile" && !isMobile) continue;
      for (const change of this.changes) {
        if (change.deviceSize !== deviceSize) continue;
        const element = this.find(change.anchor);
        if (!element) continue;
        const entry = want(element);
        if (change.changeType === "style") {
          if (change.value !== null && STYLE_PROPERTIES.includes(change.property))
            entry.styles.set(change.property, change.value);
        } else if (change.changeType === "text") {
          if (change.after) entry.text = change.after;
        } else if (change.value !== null) {
          entry.image = change.value;
        }
      }
    }
    for (const [element, live] of this.live) {
      const entry = want(element);
      for (const [property, value] of live.styles) entry.styles.set(property, value);
    }

    const changed = new Set<Element>();
    for (const [element, original] of this.originals) {
      if (wanted.has(element)) continue;
      if (this.restore(element, original)) changed.add(element);
    }
    for (const [element, entry] of wanted) {
      if (this.apply(element, entry)) changed.add(element);
    }
    return changed;
  }

  /** The element's text before any change, when its content was replaced. */
  originalText(element: Element): string | null {
    return this.originals.get(element)?.content ? this.originals.get(element)!.text : null;
  }

  private originalOf(element: Element): Original {
    let original = this.originals.get(element);
    if (!original) {
      original = {
        style: element.getAttribute("style"),
        content: null,
        text: visibleText(element),
        contentKey: null,
        image: null,
      };
      this.originals.set(element, original);
    }
    return original;
  }

  private apply(element: Element, entry: Wanted): boolean {
    const original = this.originalOf(element);
    let isChanged = false;

    const before = element.getAttribute("style");
    setAttribute(element, "style", original.style);
    const style = (element as HTMLElement).style;
    if (style) for (const [property, value] of entry.styles) style.setProperty(property, value, "important");
    if (element.getAttribute("style") !== before) isChanged = true;

    if (element !== this.editing) {
      if (entry.text) {
        const key = JSON.stringify(entry.text);
        if (original.contentKey !== key) {
          if (!original.content) original.content = [...element.childNodes];
          element.replaceChildren(renderRichText(document, entry.text));
          original.contentKey = key;
          isChanged = true;
        }
      } else if (original.content) {
        element.replaceChildren(...original.content);
        original.content = original.contentKey = null;
        isChanged = true;
      }
    }

    const url = entry.image === null ? null : sameOriginUrl(entry.image);
    const img = imageOf(element);
    if (url && img) {
      if (!original.image) {
        const picture = img.parentElement?.localName === "picture" ? img.parentElement : null;
        const sources = picture ? [...picture.querySelectorAll(":scope > source")] : [];
        original.image = {
          img,
          src: img.getAttribute("src"),
          srcset: img.getAttribute("srcset"),
          sources: (sources as HTMLSourceElement[]).map((source) => [source, source.getAttribute("srcset")]),
        };
      }
      if (img.getAttribute("src") !== url) {
        img.setAttribute("src", url);
        isChanged = true;
      }
      img.removeAttribute("srcset");
      for (const [source] of original.image.sources) source.removeAttribute("srcset");
    } else if (original.image) {
      restoreImage(original.image);
      original.image = null;
      isChanged = true;
    }
    return isChanged;
  }

  private restore(element: Element, original: Original): boolean {
    if (element === this.editing) return false;
    this.originals.delete(element);
    const wasChanged = element.getAttribute("style") !== original.style || original.content || original.image;
    setAttribute(element, "style", original.style);
    if (original.content) element.replaceChildren(...original.content);
    if (original.image) restoreImage(original.image);
    return Boolean(wasChanged);
  }
}

function setAttribute(element: Element, name: string, value: string | null): void {
  if (value === null) element.removeAttribute(name);
  else if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

function restoreImage(image: ImageOriginal): void {
  setAttribute(image.img, "src", image.src);
  setAttribute(image.img, "srcset", image.srcset);
  for (const [source, srcset] of image.sources) setAttribute(source, "srcset", srcset);
}

/** The <img> whose picture an image change replaces: the element itself, or a <picture>'s. */
export function imageOf(element: Element): HTMLImageElement | null {
  if (element instanceof HTMLImageElement) return element;
  if (element.localName === "picture") return element.querySelector(":scope > img");
  return null;
}

/** An image path on the content origin (where the page and its assets are), or null. */
function sameOriginUrl(path: string): string | null {
  if (!path.startsWith("/")) return null;
  try {
    const url = new URL(path, location.href);
    return url.origin === location.origin ? url.href : null;
  } catch {
    return null;
  }
}
