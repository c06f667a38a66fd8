/**
 * The pins: each comment's anchor is found again in this document (`anchor()` from
 * @redline/anchoring) and a numbered button is drawn at the stored click point on that element —
 * or, for a pin without an anchor, at its point as a fraction of the whole document. Anchoring runs
 * once per distinct anchor (the snapshot does not change); positions are recomputed by `layout()`,
 * which the overlay calls at most once per frame when anything may have moved.
 */
import { type Anchor, describe, dotPosition, anchor as findAnchor } from "@redline/anchoring";
import {
  type AnchoredStatus,
  type FrameAnchor,
  type FramePin,
  MAX_PIN_CANDIDATES,
  type OverlayToParent,
} from "@redline/shared";
import { dom } from "./dom.ts";

type AnchoredResult = OverlayToParent["pins:anchored"]["results"][number];
interface Found {
  element: Element;
  status: AnchoredStatus;
  score: number;
  /** needs-review: the plausible elements, best first (the pin starts on the first). */
  candidates: Element[];
}
interface Placed {
  button: HTMLButtonElement;
  /** Null for a pin on the document as a whole. */
  anchor: Anchor | null;
  /** The anchor as JSON: its cache key. */
  key: string;
  /** Undefined until anchoring got to it; null when nothing was found. */
  found: Found | null | undefined;
  /** Fraction of the element box (or of the document, without an anchor). */
  dot: { x: number; y: number };
  x: number;
  y: number;
}
export interface LayoutContext {
  /** Our host's client position: drawn coordinates are relative to it. */
  origin: { x: number; y: number };
  /** Scroll size of the document (without us). */
  document: { width: number; height: number };
}

/** Anchors travel as JSON; their fingerprint is typed loosely in the protocol and used as is here. */
const asAnchor = (frameAnchor: FrameAnchor) => frameAnchor as unknown as Anchor;
const unplaced = Number.NaN;
/** Anchoring time per slice before yielding to the page (one anchor() may overrun it). */
const SLICE_MS = 10;

export class Pins {
  private placed = new Map<string, Placed>();
  private pending: Placed | null = null;
  private focusedId: string | null = null;
  /** anchor JSON → result; the snapshot is static, so a pin re-sent unchanged is not anchored again. */
  private cache = new Map<string, Found | null>();
  /** Bumped by every `set`: an older anchoring job that sees a newer number stops. */
  private job = 0;
  /** The longest anchoring slice of the last `set` (for the benchmark). */
  longestSliceMs = 0;

  constructor(
    private readonly layer: HTMLElement,
    private readonly pendingLayer: HTMLElement,
    private readonly onSelect: (id: string) => void,
    /** Told about every element a pin sits on, so its size changes re-run the layout. */
    private readonly observe: (element: Element) => void,
    /** Pins were found or changed: positions need an update. */
    private readonly onChange: () => void,
  ) {}

  /**
   * Replaces all pins, then finds their elements in slices of about SLICE_MS, so that many pins on a
   * large page never freeze it; pins appear as they are found. `onAnchored` gets how each pin with an
   * anchor was found (for `pins:anchored`), unless a newer `set` came first.
   */
  set(pins: FramePin[], onAnchored: (results: AnchoredResult[]) => void): void {
    const job = ++this.job;
    const next = new Map<string, Placed>();
    const usedKeys = new Set<string>();
    for (const pin of [...pins].sort((a, b) => a.number - b.number)) {
      if (next.has(pin.id)) continue;
      const placed = this.placed.get(pin.id) ?? this.createPlaced(pin.id);
      this.placed.delete(pin.id);
      placed.anchor = pin.anchor ? asAnchor(pin.anchor) : null;
      placed.key = placed.anchor ? JSON.stringify(placed.anchor) : "";
      placed.found = placed.anchor ? this.cache.get(placed.key) : null;
      placed.dot = placed.anchor?.dot ?? pin.dotPosition;
      if (placed.anchor) usedKeys.add(placed.key);
      const button = placed.button;
      const label = `Comment ${pin.number}`;
      if (button.textContent !== String(pin.number)) button.textContent = String(pin.number);
      if (button.getAttribute("aria-label") !== label) button.setAttribute("aria-label", label);
      button.classList.toggle("is-resolved", pin.isResolved);
      button.classList.toggle("is-selected", pin.isSelected);
      button.classList.toggle("is-focused", pin.id === this.focusedId);
      button.setAttribute("aria-pressed", String(pin.isSelected));
      if (placed.anchor && !placed.found) button.hidden = true;
      // Appended in number order: later numbers are drawn over earlier ones.
      this.layer.append(button);
      next.set(pin.id, placed);
    }
    for (const old of this.placed.values()) old.button.remove();
    this.placed = next;
    for (const key of this.cache.keys()) if (!usedKeys.has(key)) this.cache.delete(key);

    const queue = [...next.entries()].filter(([, placed]) => placed.anchor);
    let index = 0;
    this.longestSliceMs = 0;
    const run = () => {
      if (job !== this.job) return;
      const start = performance.now();
      while (index < queue.length) {
        const placed = queue[index++]![1];
        if (placed.found === undefined) placed.found = this.find(placed.key, placed.anchor!);
        const elapsed = performance.now() - start;
        this.longestSliceMs = Math.max(this.longestSliceMs, elapsed);
        if (index < queue.length && elapsed > SLICE_MS) {
          this.onChange();
          setTimeout(run, 0);
          return;
        }
      }
      this.onChange();
      onAnchored(
        queue.map(([id, { found }]) =>
          found
            ? {
                id,
                status: found.status,
                score: found.score,
                ...(found.status === "needs-review" ? { candidates: found.candidates.length } : {}),
              }
            : { id, status: "orphaned", score: 0 },
        ),
      );
    };
    run();
  }

  /** The pin of the comment being written, or none. */
  setPending(pending: { anchor: FrameAnchor; dotPosition: { x: number; y: number } } | null): void {
    this.pending?.button.remove();
    this.pending = null;
    if (!pending) return;
    const anchor = asAnchor(pending.anchor);
    const placed = this.createPlaced(null);
    placed.anchor = anchor;
    placed.key = JSON.stringify(anchor);
    placed.found = this.find(placed.key, anchor);
    placed.dot = anchor.dot ?? pending.dotPosition;
    this.pendingLayer.append(placed.button);
    this.pending = placed;
  }

  setVisible(visible: boolean): void {
    this.layer.hidden = !visible;
    this.onChange();
  }

  /** Scrolls the pin into view and marks it; false when there is no such pin on the page. */
  focus(id: string, context: LayoutContext): boolean {
    const placed = this.placed.get(id);
    this.focusedId = id;
    for (const other of this.placed.values()) other.button.classList.toggle("is-focused", other === placed);
    if (!placed || (placed.anchor && !placed.found)) return false;
    const behavior: ScrollBehavior = matchMedia("(prefers-reduced-motion: reduce)").matches
      ? "auto"
      : "smooth";
    if (placed.found) {
      placed.found.element.scrollIntoView({ block: "center", inline: "center", behavior });
    } else {
      window.scrollTo({
        left: placed.dot.x * context.document.width - window.innerWidth / 2,
        top: placed.dot.y * context.document.height - window.innerHeight / 2,
        behavior,
      });
    }
    return true;
  }

  /**
   * Puts a pin that needs review on its candidate number `index` and scrolls to it. Returns the
   * anchor of that element with the pin's point on it (what "Keep here" saves), or null when there is
   * no such pin or candidate.
   */
  showCandidate(
    id: string,
    index: number,
    context: LayoutContext,
  ): { anchor: FrameAnchor; dotPosition: { x: number; y: number } } | null {
    const placed = this.placed.get(id);
    const found = placed?.found;
    const element = found?.candidates[index];
    if (!placed || !found || found.status !== "needs-review" || !element) return null;
    found.element = element;
    this.observe(element);
    this.onChange();
    this.focus(id, context);
    const box = element.getBoundingClientRect();
    const anchor = describe(element, {
      x: box.left + placed.dot.x * box.width,
      y: box.top + placed.dot.y * box.height,
    });
    return { anchor: anchor as unknown as FrameAnchor, dotPosition: anchor.dot ?? placed.dot };
  }

  /** Moves every pin to its element's current box: all reads first, then all writes. */
  layout(context: LayoutContext): void {
    // Hidden pins keep their last position; they are placed again when shown.
    const all = this.layer.hidden ? [] : [...this.placed.values()];
    if (this.pending) all.push(this.pending);
    for (const placed of all) this.measure(placed, context);
    for (const placed of all) {
      const button = placed.button;
      const isPlaced = !Number.isNaN(placed.x);
      if (button.hidden === isPlaced) button.hidden = !isPlaced;
      if (isPlaced) {
        const transform = `translate(${placed.x}px, ${placed.y}px)`;
        if (button.style.transform !== transform) button.style.transform = transform;
      }
    }
  }

  get count(): number {
    return this.placed.size;
  }

  get shownCount(): number {
    let shown = 0;
    for (const placed of this.placed.values()) if (!placed.button.hidden) shown++;
    return shown;
  }

  private find(key: string, anchor: Anchor): Found | null {
    if (this.cache.has(key)) return this.cache.get(key) ?? null;
    let found: Found | null = null;
    try {
      const result = findAnchor(document, anchor);
      if (result) {
        const candidates = (result.candidates ?? []).slice(0, MAX_PIN_CANDIDATES);
        if (!candidates.includes(result.element)) candidates.unshift(result.element);
        found = {
          element: result.element,
          status: result.status,
          score: result.score,
          candidates: candidates.slice(0, MAX_PIN_CANDIDATES),
        };
      }
    } catch (error) {
      // A fingerprint that passed the protocol's shape check but not anchoring's expectations.
      console.warn("[redline] could not anchor a pin", error);
    }
    this.cache.set(key, found);
    if (found) this.observe(found.element);
    return found;
  }

  private measure(placed: Placed, { origin, document: size }: LayoutContext): void {
    placed.x = placed.y = unplaced;
    if (placed.anchor) {
      const element = placed.found?.element;
      // No box (display: none at this width, or removed): nothing to point at.
      if (!element?.isConnected || element.getClientRects().length === 0) return;
      const point = dotPosition(element, { ...placed.anchor, dot: placed.dot });
      placed.x = round(point.x - origin.x);
      placed.y = round(point.y - origin.y);
    } else {
      placed.x = round(placed.dot.x * size.width - window.scrollX - origin.x);
      placed.y = round(placed.dot.y * size.height - window.scrollY - origin.y);
    }
  }

  /** A pin's button; `id` null for the pending pin, which is only a marker. */
  private createPlaced(id: string | null): Placed {
    const button = dom.createElement("button");
    button.type = "button";
    button.className = id === null ? "pin is-pending" : "pin";
    button.hidden = true;
    if (id === null) {
      button.tabIndex = -1;
      button.setAttribute("aria-hidden", "true");
    } else {
      button.dataset.id = id;
      button.addEventListener("click", (event) => {
        // Our click is not the page's.
        event.stopPropagation();
        this.onSelect(id);
      });
    }
    return { button, anchor: null, key: "", found: null, dot: { x: 0.5, y: 0.5 }, x: unplaced, y: unplaced };
  }
}

const round = (value: number) => Math.round(value * 100) / 100;
