import { z } from "zod";
import { type FrameAnchor as AnchorData, frameAnchorSchema as anchorSchema } from "./frame-messages.ts";
import type { VersionKind } from "./projects.ts";

/**
 * Where a comment (or a ticket) points, as one value (issue #29 item 1): an element of a web page (its
 * anchor and the click point inside it), a point on an image, a point on a PDF page, an object on a slide,
 * or a time (and optional region) in a video. Points and regions are fractions of the element's box, the
 * image, the page, the slide (or the slide object's box) or the video frame. Stored in `comments.target`
 * (ADR 0045) and a widget ticket's `tickets.target`.
 */
const fraction = z.number().min(0).max(1);
const point = z.object({ x: fraction, y: fraction }).strict();
const region = z
  .object({ x: fraction, y: fraction, width: fraction, height: fraction })
  .strict()
  .refine((r) => r.x + r.width <= 1 && r.y + r.height <= 1, "The region must lie inside the video frame.");

export const targetSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("element"),
      /** Null only for legacy rows that were stored with a bare selector and no anchor. */
      anchor: z.nullable(anchorSchema),
      /** The legacy selector of rows stored before anchors (and the widget's own selector). */
      selector: z.string().min(1).max(2000).optional(),
      point,
    })
    .strict(),
  z.object({ kind: z.literal("image-point"), point }).strict(),
  z.object({ kind: z.literal("pdf-point"), page: z.number().int().min(1).max(10_000), point }).strict(),
  z
    .object({
      kind: z.literal("slide"),
      /** The slide's id in the deck (ADR 0040: ids inside one Yjs document, not rows). */
      slideId: z.string().min(1).max(64),
      /** The object the pin sits on (the point is then a fraction of its box); left out for a point of the slide. */
      objectId: z.string().min(1).max(64).optional(),
      point,
    })
    .strict(),
  z
    .object({
      kind: z.literal("video"),
      /** Seconds from the start. */
      time: z.number().min(0).max(86_400),
      region: region.optional(),
    })
    .strict(),
]);
export type Target = z.infer<typeof targetSchema>;
export type TargetKind = Target["kind"];

/** What a version shows, which decides the targets a comment on it may have. */
export type TargetContent = "page" | "image" | "pdf" | "slides" | "video";

/** The content of a version of each kind: a screenshot is commented on as an image. */
export function targetContentOf(kind: VersionKind): TargetContent {
  if (kind === "snapshot") return "page";
  if (kind === "pdf") return "pdf";
  return "image";
}

const KIND_FOR_CONTENT: Record<TargetContent, TargetKind> = {
  page: "element",
  image: "image-point",
  pdf: "pdf-point",
  slides: "slide",
  video: "video",
};

const CONTENT_NAME: Record<TargetContent, string> = {
  page: "a web page",
  image: "an image",
  pdf: "a PDF",
  slides: "slides",
  video: "a video",
};

const KIND_NAME: Record<TargetKind, string> = {
  element: "an element of a web page",
  "image-point": "a point on an image",
  "pdf-point": "a point on a PDF page",
  slide: "an object on a slide",
  video: "a time in a video",
};

/**
 * Null when the target fits the content; otherwise the message for a 400 (a video time on an image, a PDF
 * point on a snapshot page).
 */
export function targetMismatch(target: Target, content: TargetContent): string | null {
  if (KIND_FOR_CONTENT[content] === target.kind) return null;
  return `This comment points at ${KIND_NAME[target.kind]}, but this version shows ${CONTENT_NAME[content]}.`;
}

/**
 * The columns a comment stored before the target existed (`query_selector`, `anchor`, `dot_position`,
 * `pdf_page`, and `object_id` on a slide's comment — `slide_id` stays, as the comment's place).
 */
export interface LegacyTargetColumns {
  querySelector: string | null;
  anchor: AnchorData | null;
  dotPosition: { x: number; y: number };
  pdfPage: number | null;
  slideId: string | null;
  objectId: string | null;
}

/**
 * The target the legacy columns describe, for a version showing `content` (a slide's comment: its slide).
 * No information is lost: an element keeps its anchor and its bare legacy selector (kept only when the
 * anchor does not already say it), a PDF point its page, a slide's pin its object. The migration
 * `0039_comment_targets` does the same in SQL (`comment_target_of`), tested to agree.
 */
export function targetFromLegacy(columns: LegacyTargetColumns, content: TargetContent): Target {
  const point = { x: columns.dotPosition.x, y: columns.dotPosition.y };
  if (columns.slideId !== null) {
    return {
      kind: "slide",
      slideId: columns.slideId,
      ...(columns.objectId !== null ? { objectId: columns.objectId } : {}),
      point,
    };
  }
  if (columns.pdfPage !== null || content === "pdf") {
    return { kind: "pdf-point", page: columns.pdfPage ?? 1, point };
  }
  if (content === "image") return { kind: "image-point", point };
  return {
    kind: "element",
    anchor: columns.anchor,
    ...(columns.querySelector !== null && columns.querySelector !== columns.anchor?.querySelector
      ? { selector: columns.querySelector }
      : {}),
    point,
  };
}

/** The legacy columns for a target, written alongside it while the previous release still reads them (ADR 0031). */
export function legacyFromTarget(target: Target): LegacyTargetColumns {
  switch (target.kind) {
    case "element":
      return {
        ...NO_LEGACY,
        querySelector: target.selector ?? target.anchor?.querySelector ?? null,
        anchor: target.anchor,
        dotPosition: target.point,
      };
    case "image-point":
      return { ...NO_LEGACY, dotPosition: target.point };
    case "pdf-point":
      return { ...NO_LEGACY, dotPosition: target.point, pdfPage: target.page };
    case "slide":
      return {
        ...NO_LEGACY,
        dotPosition: target.point,
        slideId: target.slideId,
        objectId: target.objectId ?? null,
      };
    case "video":
      return {
        ...NO_LEGACY,
        dotPosition: target.region ? { x: target.region.x, y: target.region.y } : { x: 0.5, y: 0.5 },
      };
  }
}

const NO_LEGACY = { querySelector: null, anchor: null, pdfPage: null, slideId: null, objectId: null };

/** A new comment's place as callers send it: the target, or the legacy fields (`anchor`, `dotPosition`, `pdfPage`). */
export interface TargetInput {
  target?: Target | undefined;
  anchor?: AnchorData | undefined;
  dotPosition?: { x: number; y: number } | undefined;
  pdfPage?: number | undefined;
}

/**
 * The target a new comment on `content` asks for: its `target`, or the one its legacy fields describe (an
 * anchor is an element, a page number a PDF point, a bare point the content's own kind). Null when it
 * names no place at all (neither a target nor a point), or both a target and legacy fields.
 */
export function targetFromInput(input: TargetInput, content: TargetContent): Target | null {
  const legacy = input.anchor !== undefined || input.dotPosition !== undefined || input.pdfPage !== undefined;
  if (input.target) return legacy ? null : input.target;
  if (!input.dotPosition) return null;
  const point = { x: input.dotPosition.x, y: input.dotPosition.y };
  if (input.anchor) return { kind: "element", anchor: input.anchor, point };
  if (input.pdfPage !== undefined) return { kind: "pdf-point", page: input.pdfPage, point };
  switch (KIND_FOR_CONTENT[content]) {
    case "element":
      return { kind: "element", anchor: null, point };
    case "pdf-point":
      return { kind: "pdf-point", page: 1, point };
    default:
      return { kind: "image-point", point };
  }
}

/**
 * A target moved: a new point (its pin dragged or re-anchored) and, on an element, a new anchor (which
 * replaces a legacy bare selector). Null when the change does not fit the target's kind (an anchor on an
 * image's point, a point on a video time without a region).
 */
export function movedTarget(
  target: Target,
  change: { dotPosition?: { x: number; y: number } | undefined; anchor?: AnchorData | undefined },
): Target | null {
  if (change.anchor && target.kind !== "element") return null;
  if (target.kind === "video") return change.dotPosition ? null : target;
  const point = change.dotPosition ? { x: change.dotPosition.x, y: change.dotPosition.y } : target.point;
  if (target.kind === "element" && change.anchor) return { kind: "element", anchor: change.anchor, point };
  return { ...target, point };
}
