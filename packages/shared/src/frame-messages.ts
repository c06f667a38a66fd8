/**
 * The protocol between the app (parent window) and the overlay running inside the sandboxed snapshot
 * iframe: one message map per direction, each payload a zod schema, every message wrapped in an
 * envelope `{ protocol: FRAME_PROTOCOL, type, payload }`. Both ends validate every message they
 * receive with `parseParentToOverlay` / `parseOverlayToParent` and drop anything that fails.
 *
 * Who may talk to whom (checked by the receiver, besides the schema):
 *   overlay → parent   the overlay posts to `window.parent` with targetOrigin = the app origin it was
 *                      given (`data-app-origin` on its script tag). The snapshot is an opaque origin,
 *                      so the app sees `event.origin === "null"`: it must accept a message only when
 *                      `event.source === iframe.contentWindow`.
 *   parent → overlay   the app posts to `iframe.contentWindow` with targetOrigin "*" (an opaque origin
 *                      cannot be named) and only after `overlay:ready` from that load of the frame;
 *                      the overlay accepts only `event.source === window.parent` and
 *                      `event.origin === app origin`.
 *
 * Coordinates: "client" = the iframe's viewport in CSS px; "fraction" = 0..1 of a box.
 *
 * Written with zod/mini (`import * as z`): the overlay bundles these schemas; classic zod costs
 * about four times as much (~27 KB gzip against ~6) and probes `new Function`, which the snapshot's
 * CSP reports as a violation. Mini schemas are ordinary zod 4 schemas (`safeParse`, `z.infer`,
 * composable with classic ones).
 */
import * as z from "zod/mini";

export const FRAME_PROTOCOL = "redline/1";

const MAX_ANCHOR_JSON = 16_384;
/**
 * The most pins (and inspect changes) one message carries: a hostile or broken sender cannot make the
 * overlay hold more. The review screen sends at most this many pins, the selected one always among them.
 */
export const MAX_FRAME_PINS = 2000;
const MAX_PINS = MAX_FRAME_PINS;
/** At most this many candidates are offered for a pin that needs review. */
export const MAX_PIN_CANDIDATES = 5;
const candidateIndex = z.number().check(z.int(), z.minimum(0), z.maximum(MAX_PIN_CANDIDATES - 1));

const coordinate = z.number();
const fraction = z.number().check(z.minimum(0), z.maximum(1));
const size = z.number().check(z.minimum(0));
const point = z.object({ x: coordinate, y: coordinate });
const fractionPoint = z.object({ x: fraction, y: fraction });
const rect = z.object({ x: coordinate, y: coordinate, width: size, height: size });

/**
 * An element anchor from @redline/anchoring (`describe()` output), carried as is. Same shape as
 * `anchorSchema` in comments.ts: the shape and size are checked here, the fingerprint's meaning only
 * by `anchor()` inside the page.
 */
export const frameAnchorSchema = z
  .object({
    v: z.literal(1),
    querySelector: z.string().check(z.minLength(1), z.maxLength(2000)),
    selectors: z.object({
      css: z.string().check(z.maxLength(2000)),
      xpath: z.string().check(z.maxLength(4000)),
      idPath: z.nullable(z.string().check(z.maxLength(2000))),
    }),
    fingerprint: z.record(z.string(), z.unknown()),
    dot: z.nullable(fractionPoint),
  })
  .check(z.refine((anchor) => JSON.stringify(anchor).length <= MAX_ANCHOR_JSON, "Anchor too large"));
export type FrameAnchor = z.infer<typeof frameAnchorSchema>;

export const OVERLAY_MODES = ["browse", "comment", "inspect"] as const;
export type OverlayMode = (typeof OVERLAY_MODES)[number];

export const framePinSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  number: z.int().check(z.minimum(0), z.maximum(1_000_000)),
  /** null: a pin placed on the page as a whole (`dotPosition` is then a fraction of the document). */
  anchor: z.nullable(frameAnchorSchema),
  /** With an anchor: the click point as a fraction of the element box, used when `anchor.dot` is null. */
  dotPosition: fractionPoint,
  isResolved: z.boolean(),
  isSelected: z.boolean(),
});
export type FramePin = z.infer<typeof framePinSchema>;

/** An element's new text in inspect mode: plain text plus bold/italic/underline ranges (inspect.ts RichText). */
export const frameRichTextSchema = z.object({
  text: z.string().check(z.maxLength(10_000)),
  marks: z
    .array(
      z.object({
        mark: z.enum(["b", "i", "u"]),
        start: z.int().check(z.minimum(0)),
        end: z.int().check(z.minimum(1)),
      }),
    )
    .check(z.maxLength(500)),
});

/**
 * A suggested edit to show in the page (inspect and preview): saved ones and those not saved yet.
 * style: `property` a CSS property, `value` its value (applied inline, !important); text: `after`
 * replaces the element's content; image: `value` is the new image's path on the content origin.
 * "default" changes apply at every width, "mobile" ones only at ≤ 740 px and win there (like the
 * `.css` patch's media query).
 */
export const frameChangeSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  anchor: frameAnchorSchema,
  changeType: z.enum(["style", "text", "image"]),
  property: z.string().check(z.maxLength(64)),
  value: z.nullable(z.string().check(z.maxLength(2000))),
  after: z.nullable(frameRichTextSchema),
  deviceSize: z.enum(["default", "mobile"]),
});
export type FrameChange = z.infer<typeof frameChangeSchema>;

/** What the edit panel needs to know of the element picked in inspect mode. */
const inspectedElement = {
  anchor: frameAnchorSchema,
  /** Border box in the frame's viewport. */
  rect,
  deviceWidth: size,
  tag: z.string().check(z.maxLength(64)),
  /** An <img> (or picture/svg image) whose picture can be replaced. */
  isImage: z.boolean(),
  /** Holds text that can be edited in place. */
  hasText: z.boolean(),
  /** Its visible text (innerText), for the text change's `before`. */
  text: z.string().check(z.maxLength(10_000)),
  /** Computed values of the edit panel's properties (font-size "16px", color "rgb(…)", …). */
  styles: z.record(z.string().check(z.maxLength(64)), z.string().check(z.maxLength(2000))),
};

export const ANCHORED_STATUSES = ["exact", "fuzzy", "needs-review", "orphaned"] as const;
export type AnchoredStatus = (typeof ANCHORED_STATUSES)[number];

/** Messages the app sends to the overlay. */
export const parentToOverlaySchemas = {
  /** browse: the page behaves as captured; comment / inspect: hover highlights, a click picks. */
  "overlay:mode": z.object({ mode: z.enum(OVERLAY_MODES) }),
  /** The full set of pins to show; replaces the previous set. */
  "pins:set": z.object({ pins: z.array(framePinSchema).check(z.maxLength(MAX_PINS)) }),
  /** Scroll a pin into view and mark it. */
  "pin:focus": z.object({ id: z.string().check(z.maxLength(100)) }),
  /** A pin that needs review: put it on its candidate number `index` (0 = the best) and show it. */
  "pin:candidate": z.object({ id: z.string().check(z.maxLength(100)), index: candidateIndex }),
  "pins:visible": z.object({ visible: z.boolean() }),
  /** The comment being written (after `pick:element`), or null when it is sent or cancelled. */
  "pending:set": z.nullable(z.object({ anchor: frameAnchorSchema, dotPosition: fractionPoint })),
  /** Inspect / preview: the full set of changes to show; replaces the previous set (others are undone). */
  "inspect:apply": z.object({ changes: z.array(frameChangeSchema).check(z.maxLength(MAX_PINS)) }),
  /** Inspect: select this element (as if clicked), or clear the selection with null. */
  "inspect:select": z.nullable(z.object({ anchor: frameAnchorSchema })),
} as const;

/** Messages the overlay sends to the app. */
export const overlayToParentSchemas = {
  /** Once per load of the frame, when the overlay listens. `width`/`height`: the document size. */
  "overlay:ready": z.object({ width: size, height: size, url: z.string().check(z.maxLength(8192)) }),
  /** A click in comment or inspect mode. `dotPosition` is the fraction of the element box (= anchor.dot). */
  "pick:element": z.object({
    anchor: frameAnchorSchema,
    dotPosition: fractionPoint,
    rect,
    deviceWidth: size,
  }),
  "pin:select": z.object({ id: z.string().check(z.maxLength(100)) }),
  /** After each `pins:set`: how each pin with an anchor was found (orphaned: not found, not shown). */
  "pins:anchored": z.object({
    results: z
      .array(
        z.object({
          id: z.string().check(z.maxLength(100)),
          status: z.enum(ANCHORED_STATUSES),
          score: fraction,
          /** needs-review: how many candidate elements can be offered (`pin:candidate`). */
          candidates: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(MAX_PIN_CANDIDATES))),
        }),
      )
      .check(z.maxLength(MAX_PINS)),
  }),
  /** After `pin:candidate`: the pin now sits on that element; its anchor, to save if the reviewer agrees. */
  "pin:candidate": z.object({
    id: z.string().check(z.maxLength(100)),
    index: candidateIndex,
    anchor: frameAnchorSchema,
    dotPosition: fractionPoint,
  }),
  /** The document's scroll size changed (the app may size the frame to it). */
  "document:size": z.object({ width: size, height: size }),
  /** The frame's own scroll position changed. */
  "document:scroll": point,
  /** Inspect mode: an element was clicked (selected) — or re-measured after a change was applied. */
  "inspect:selected": z.object(inspectedElement),
  /** Inspect mode: the selection was cleared (Escape, or a click outside the page's elements). */
  "inspect:cleared": z.object({}),
  /** Inspect mode: in-place text editing of the selected element ended with a different text. */
  "inspect:text": z.object({
    anchor: frameAnchorSchema,
    deviceWidth: size,
    before: z.string().check(z.maxLength(10_000)),
    after: frameRichTextSchema,
  }),
  /** Inspect mode: the selected element was moved with the arrow keys; its total offset in px. */
  "inspect:move": z.object({ anchor: frameAnchorSchema, deviceWidth: size, translate: point }),
  /** A shortcut pressed while the page had the keyboard: Cmd/Ctrl+Z, Cmd/Ctrl+J (SPEC §2 shortcuts). */
  "inspect:shortcut": z.object({ action: z.enum(["undo", "toggle-edit"]) }),
} as const;

type PayloadsOf<S extends Record<string, z.ZodMiniType>> = { [K in keyof S]: z.infer<S[K]> };
export type ParentToOverlay = PayloadsOf<typeof parentToOverlaySchemas>;
export type OverlayToParent = PayloadsOf<typeof overlayToParentSchemas>;

/** The envelope of one message of map M (a union over all its types unless T narrows it). */
export type FrameMessage<M, T extends keyof M = keyof M> = {
  [K in T]: { protocol: typeof FRAME_PROTOCOL; type: K; payload: M[K] };
}[T];
export type ParentToOverlayMessage = FrameMessage<ParentToOverlay>;
export type OverlayToParentMessage = FrameMessage<OverlayToParent>;

export function frameMessage<M, T extends keyof M & string>(type: T, payload: M[T]): FrameMessage<M, T> {
  return { protocol: FRAME_PROTOCOL, type, payload } as FrameMessage<M, T>;
}

function parseWith<S extends Record<string, z.ZodMiniType>>(
  schemas: S,
  data: unknown,
): FrameMessage<PayloadsOf<S>> | null {
  if (typeof data !== "object" || data === null) return null;
  const { protocol, type, payload } = data as Record<string, unknown>;
  if (protocol !== FRAME_PROTOCOL || typeof type !== "string" || !Object.hasOwn(schemas, type)) return null;
  const result = schemas[type]!.safeParse(payload);
  if (!result.success) return null;
  return { protocol, type, payload: result.data } as FrameMessage<PayloadsOf<S>>;
}

/** A valid app → overlay message, or null. */
export function parseParentToOverlay(data: unknown): ParentToOverlayMessage | null {
  return parseWith(parentToOverlaySchemas, data);
}

/** A valid overlay → app message, or null. */
export function parseOverlayToParent(data: unknown): OverlayToParentMessage | null {
  return parseWith(overlayToParentSchemas, data);
}
