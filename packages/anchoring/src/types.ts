/** The stored description of one element. JSON-serialisable; `v` versions the format. */
export interface Anchor {
  v: 1;
  /** The spec's legacy selector: a short CSS selector unique in the document at describe time. */
  querySelector: string;
  selectors: {
    /** Unique CSS selector, free of positional pseudo-classes when one could be found. */
    css: string;
    /** Absolute positional XPath (`/html/body/div[2]/a`). */
    xpath: string;
    /** Nearest ancestor with a stable id + child path (`#pricing > div:nth-of-type(2) > a`), or null. */
    idPath: string | null;
  };
  fingerprint: Fingerprint;
  /** The click point as a fraction (0..1) of the element's box; null when none was given. */
  dot: { x: number; y: number } | null;
}

export interface Fingerprint {
  tag: string;
  id: string | null;
  name: string | null;
  role: string | null;
  ariaLabel: string | null;
  alt: string | null;
  href: string | null;
  src: string | null;
  /** Every class as written (generated ones included); comparisons use the stable ones. */
  classes: string[];
  /** Stable, identifying attributes (test ids, type, placeholder, title, for, data-*…). */
  attributes: Record<string, string>;
  /** Normalised text (NFKC, lower case, whitespace collapsed, at most 160 characters). */
  text: string;
  /** Normalised text around the element: its label, or the closest text before and after it. */
  neighbourText: string;
  /** Border box in document coordinates (CSS px) at describe time. */
  rect: Rect;
  /** Nearest first, up to 6, `tag#stable-id.stable-class`, body excluded. */
  ancestors: string[];
  /** 0-based position among the parent's children of the same tag. */
  index: number;
  /**
   * What an icon draws: the shapes of its SVG (path data, points, circles), normalised, at most 120
   * characters; for elements without text of their own. Absent in anchors described before it.
   */
  icon?: string;
  /**
   * Other elements of the page with the same tag family and text (or name, without text) when it
   * was described: 0 for a one-off. Absent in anchors described before it.
   */
  twins?: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type AnchorStatus = "exact" | "fuzzy" | "needs-review";

export interface AnchorResult {
  element: Element;
  /** Weighted fingerprint similarity of `element`, 0..1. */
  score: number;
  status: AnchorStatus;
  /** With "needs-review": the plausible elements, best first (the first is `element`). */
  candidates?: Element[];
}
