/**
 * The slide deck of an illustration project (SPEC §2, §3 Slide, §9; issue #32). The deck is a Yjs
 * document on both sides (ADR 0040): its root map `slides` holds one map per slide keyed by id, each with
 * its objects in a map keyed by id, so two editors' changes merge per property. This file holds what both
 * sides agree on without Yjs: the deck as JSON (`doc.getMap("slides").toJSON()`) and its zod schema — the
 * server refuses an update whose result does not pass it —, the SPEC's sizes and timings, and the pure
 * rules of the editor (order, deleting the current slide, moves).
 */
import { z } from "zod";

/** The slide's own coordinate space: a 10:7 canvas, twice the 500×350 thumbnail. */
export const SLIDE_SIZE = { width: 1000, height: 700 } as const;
/** Thumbnails (SPEC §9): 500×350. */
export const SLIDE_THUMBNAIL = { width: 500, height: 350 } as const;
/** A pasted image lands this far from the one it was pasted over (SPEC §9: +20 px top, +50 px left). */
export const PASTE_OFFSET = { top: 20, left: 50 } as const;
/** Shift+arrow moves 10 px, an arrow alone 1 px (SPEC §2, §9). */
export const ARROW_STEP = { normal: 1, shift: 10 } as const;
/** SPEC §9's saving delays, per kind of edit. */
export const SLIDE_SAVE_DELAY_MS = { object: 3000, comment: 1000 } as const;
/** SPEC §3's font sizes. */
export const SLIDE_FONT_SIZES = [8, 9, 10, 11, 12, 14, 16, 18, 20, 22, 24, 26, 28, 36, 48, 72] as const;
/** 100 to 900 in steps of 100, each with an italic variant (SPEC §3). */
export const SLIDE_FONT_WEIGHTS = [100, 200, 300, 400, 500, 600, 700, 800, 900] as const;
export const SLIDE_FONTS = ["Inter", "Georgia", "Courier New", "Arial", "Times New Roman"] as const;
export const SLIDE_ALIGNS = ["left", "center", "right"] as const;
export const MAX_SLIDES = 500;
export const MAX_SLIDE_OBJECTS = 1000;
export const MAX_SLIDE_TEXT = 10_000;
/** A deck update's base64 text (one request): 2 MB is thousands of edits. */
export const MAX_DECK_UPDATE_CHARS = 2_000_000;

const id = z.string().min(1).max(64);
const coordinate = z.number().finite().min(-100_000).max(100_000);
const size = z.number().finite().min(1).max(100_000);
const placed = {
  id,
  x: coordinate,
  y: coordinate,
  width: size,
  height: size,
  rotation: z.number().finite().min(-360).max(360),
  /** Layer order: higher draws over lower. */
  z: z.number().finite(),
};

export const slideImageSchema = z
  .object({
    ...placed,
    kind: z.literal("image"),
    /** Only images uploaded to this instance (POST /api/projects/{id}/slides/images). */
    src: z
      .string()
      .max(300)
      .regex(/^\/files\/slides\/[A-Za-z0-9_-]+\/[a-f0-9]{64}\.(png|jpg|webp|gif)$/),
  })
  .strict();

export const slideTextSchema = z
  .object({
    ...placed,
    kind: z.literal("text"),
    text: z.string().max(MAX_SLIDE_TEXT),
    fontFamily: z.enum(SLIDE_FONTS),
    fontSize: z.number().int().min(8).max(200),
    fontWeight: z.number().int().min(100).max(900).multipleOf(100),
    italic: z.boolean(),
    underline: z.boolean(),
    fill: z.string().regex(/^#[0-9a-f]{6}$/i),
    align: z.enum(SLIDE_ALIGNS),
  })
  .strict();

export const slideObjectSchema = z.discriminatedUnion("kind", [slideImageSchema, slideTextSchema]);
export type SlideObject = z.infer<typeof slideObjectSchema>;
export type SlideImage = z.infer<typeof slideImageSchema>;
export type SlideText = z.infer<typeof slideTextSchema>;

export const slideSchema = z
  .object({
    id,
    /** Order in the deck: slides sort by position (then id), so two people reordering never duplicate one. */
    position: z.number().finite(),
    createdAt: z.number().int().min(0),
    notes: z.string().max(MAX_SLIDE_TEXT),
    objects: z
      .record(id, slideObjectSchema)
      .refine(
        (objects) => Object.keys(objects).length <= MAX_SLIDE_OBJECTS,
        "A slide holds at most 1,000 objects.",
      )
      .refine(
        (objects) => Object.entries(objects).every(([key, object]) => key === object.id),
        "An object is kept under its own id.",
      ),
  })
  .strict();
export type Slide = z.infer<typeof slideSchema>;

/** The whole deck as JSON: slides by id. */
export const deckSchema = z
  .record(id, slideSchema)
  .refine((slides) => Object.keys(slides).length <= MAX_SLIDES, "A deck holds at most 500 slides.")
  .refine(
    (slides) => Object.entries(slides).every(([key, slide]) => key === slide.id),
    "A slide is kept under its own id.",
  );
export type Deck = z.infer<typeof deckSchema>;

/** An update the editor sends: Yjs's binary update as base64. */
export const deckUpdateSchema = z
  .object({
    update: z
      .string()
      .min(1)
      .max(MAX_DECK_UPDATE_CHARS)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, "The update must be base64."),
    /** The editor tab that made it (its Yjs client id): its own echo is skipped. */
    clientId: z
      .number()
      .int()
      .min(0)
      .max(2 ** 53)
      .optional(),
  })
  .strict();

/** Who is on which slide with what selected (presence; relayed, never stored). */
export const deckPresenceSchema = z
  .object({
    /** The editor tab (Yjs client id), so one person with two tabs shows twice. */
    clientId: z
      .number()
      .int()
      .min(0)
      .max(2 ** 53),
    slideId: id.nullable(),
    selection: z.array(id).max(MAX_SLIDE_OBJECTS),
  })
  .strict();
export type DeckPresenceInput = z.infer<typeof deckPresenceSchema>;
export interface DeckPresence extends DeckPresenceInput {
  /** Null for a guest of the public link (no account). */
  userId: string | null;
  /** The member's name, or the guest's as their identity gives it (never an e-mail of a guest). */
  name: string;
  /** A guest of the public link: reads the deck, never edits it. */
  isGuest?: boolean;
}

/**
 * GET /api/projects/{id}/deck (a member) and /api/share/{id}/deck (a guest of the public link, never
 * `canEdit`): the whole deck as one Yjs update (base64) and whether the reader may change it.
 */
export const deckStateSchema = z.strictObject({ update: z.string(), canEdit: z.boolean() });
export type DeckState = z.infer<typeof deckStateSchema>;

/** POST …/deck/updates: the stored update's number (0 once folded into the deck's snapshot). */
export const deckUpdatedSchema = z.strictObject({ id: z.number().int().min(0) });

/** POST …/slides/images: where the uploaded image is served, and its size in pixels. */
export const slideImageUploadSchema = z.strictObject({
  src: z.string(),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
});
export type SlideImageUpload = z.infer<typeof slideImageUploadSchema>;

/** The slides in deck order. */
export function orderedSlides(deck: Deck): Slide[] {
  return Object.values(deck).sort(
    (a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** The objects of a slide in layer order, bottom first. */
export function layeredObjects(slide: Pick<Slide, "objects">): SlideObject[] {
  return Object.values(slide.objects).sort((a, b) => a.z - b.z || (a.id < b.id ? -1 : 1));
}

/** A position between two neighbours' (either may be missing: the start or the end of the deck). */
export function positionBetween(before: number | undefined, after: number | undefined): number {
  if (before === undefined && after === undefined) return 1;
  if (before === undefined) return (after as number) - 1;
  if (after === undefined) return before + 1;
  return (before + after) / 2;
}

/**
 * The position a slide gets when dragged to `index` of the order (the slide itself left out), so only its
 * own position changes.
 */
export function positionForMove(order: readonly Slide[], slideId: string, index: number): number {
  const others = order.filter((slide) => slide.id !== slideId);
  const at = Math.max(0, Math.min(index, others.length));
  return positionBetween(others[at - 1]?.position, others[at]?.position);
}

/**
 * SPEC §4: deleting the current slide moves to the previous one, or the first if it was first; deleting
 * the last slide resets it to a blank one (`reset`).
 */
export function afterDeleting(
  order: readonly Pick<Slide, "id">[],
  slideId: string,
): { next: string | null; reset: boolean } {
  if (order.length <= 1) return { next: slideId, reset: true };
  const index = order.findIndex((slide) => slide.id === slideId);
  const rest = order.filter((slide) => slide.id !== slideId);
  return { next: rest[Math.max(0, index - 1)]?.id ?? rest[0]?.id ?? null, reset: false };
}

/**
 * The id of the blank slide an empty deck gets, from every slide id the deck ever had (a Yjs map keeps a
 * deleted key): every editor holding the same deck draws the same id, so two editors emptying it at once
 * set the same key and the merge keeps one slide, not two; a later blank slide never takes an earlier
 * one's id. FNV-1a over the sorted ids, two 32-bit lanes: `blank` and 16 hex digits.
 */
export function blankSlideId(everSlideIds: Iterable<string>): string {
  const keys = [...everSlideIds].sort().join(",");
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < keys.length; i++) {
    const c = keys.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 13);
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
  return `blank${hex(a)}${hex(b)}`;
}

/** Where an arrow key moves an object: 1 px, 10 px with Shift. */
export function arrowMove(key: string, shift: boolean): { dx: number; dy: number } | null {
  const step = shift ? ARROW_STEP.shift : ARROW_STEP.normal;
  if (key === "ArrowLeft") return { dx: -step, dy: 0 };
  if (key === "ArrowRight") return { dx: step, dy: 0 };
  if (key === "ArrowUp") return { dx: 0, dy: -step };
  if (key === "ArrowDown") return { dx: 0, dy: step };
  return null;
}

/** A pasted copy's place: SPEC §9's offset from the original (or from the top left of the slide). */
export function pastedAt(from: { x: number; y: number } | null): { x: number; y: number } {
  const base = from ?? { x: 0, y: 0 };
  return { x: base.x + PASTE_OFFSET.left, y: base.y + PASTE_OFFSET.top };
}

/** An image's box fitted inside the slide (at most 60 % of it), keeping its aspect ratio. */
export function fittedImageSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, (SLIDE_SIZE.width * 0.6) / width, (SLIDE_SIZE.height * 0.6) / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Distances from a box to its nearest neighbours on each side (Ctrl/Cmd+hover, SPEC §2), in slide pixels;
 * a side with nothing before the slide's edge measures to the edge.
 */
export function neighbourDistances(
  box: { x: number; y: number; width: number; height: number },
  others: readonly { x: number; y: number; width: number; height: number }[],
): { left: number; right: number; top: number; bottom: number } {
  const overlapsY = (o: (typeof others)[number]) => o.y < box.y + box.height && o.y + o.height > box.y;
  const overlapsX = (o: (typeof others)[number]) => o.x < box.x + box.width && o.x + o.width > box.x;
  let left = box.x;
  let right = SLIDE_SIZE.width - (box.x + box.width);
  let top = box.y;
  let bottom = SLIDE_SIZE.height - (box.y + box.height);
  for (const o of others) {
    if (overlapsY(o) && o.x + o.width <= box.x) left = Math.min(left, box.x - (o.x + o.width));
    if (overlapsY(o) && o.x >= box.x + box.width) right = Math.min(right, o.x - (box.x + box.width));
    if (overlapsX(o) && o.y + o.height <= box.y) top = Math.min(top, box.y - (o.y + o.height));
    if (overlapsX(o) && o.y >= box.y + box.height) bottom = Math.min(bottom, o.y - (box.y + box.height));
  }
  const round = (n: number) => Math.round(n);
  return { left: round(left), right: round(right), top: round(top), bottom: round(bottom) };
}

/** A new text's style. */
export const DEFAULT_TEXT_STYLE = {
  fontFamily: "Inter",
  fontSize: 28,
  fontWeight: 400,
  italic: false,
  underline: false,
  fill: "#1f2933",
  align: "left",
} as const satisfies Partial<SlideText>;

export const SLIDE_MESSAGES = {
  malformed: "The slide change could not be applied: it does not make a valid deck.",
  notSlides: "This project has no slides: only illustration projects do.",
  notImage: "Upload a JPEG, PNG, WebP or GIF image.",
} as const;
