import { z } from "zod";
import { type AnchorData, anchorSchema } from "./comments.ts";
import type { VersionKind } from "./projects.ts";

/**
 * Where a comment (or a ticket) points, as one value (issue #29 item 1): an element of a web page (its
 * anchor and the click point inside it), a point on an image, a point on a PDF page, an object on a slide,
 * or a time (and optional region) in a video. Points and regions are fractions of the element's box, the
 * image, the page, the slide or the video frame.
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
      slide: z.number().int().min(1).max(10_000),
      objectId: z.string().min(1).max(200).optional(),
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

/** The columns a comment stored before the target existed (`query_selector`, `anchor`, `dot_position`, `pdf_page`). */
export interface LegacyTargetColumns {
  querySelector: string | null;
  anchor: AnchorData | null;
  dotPosition: { x: number; y: number };
  pdfPage: number | null;
}

/**
 * The target the legacy columns describe, for a version showing `content`. No information is lost: an
 * element keeps its anchor and its bare legacy selector, a PDF point its page.
 */
export function targetFromLegacy(columns: LegacyTargetColumns, content: TargetContent): Target {
  const point = { x: columns.dotPosition.x, y: columns.dotPosition.y };
  if (columns.pdfPage !== null || content === "pdf") {
    return { kind: "pdf-point", page: columns.pdfPage ?? 1, point };
  }
  if (content === "image") return { kind: "image-point", point };
  return {
    kind: "element",
    anchor: columns.anchor,
    ...(columns.querySelector !== null ? { selector: columns.querySelector } : {}),
    point,
  };
}

/** The legacy columns for a target, written alongside it while the previous release still reads them (ADR 0031). */
export function legacyFromTarget(target: Target): LegacyTargetColumns {
  switch (target.kind) {
    case "element":
      return {
        querySelector: target.selector ?? target.anchor?.querySelector ?? null,
        anchor: target.anchor,
        dotPosition: target.point,
        pdfPage: null,
      };
    case "image-point":
      return { querySelector: null, anchor: null, dotPosition: target.point, pdfPage: null };
    case "pdf-point":
      return { querySelector: null, anchor: null, dotPosition: target.point, pdfPage: target.page };
    case "slide":
      return { querySelector: null, anchor: null, dotPosition: target.point, pdfPage: null };
    case "video":
      return {
        querySelector: null,
        anchor: null,
        dotPosition: target.region ? { x: target.region.x, y: target.region.y } : { x: 0.5, y: 0.5 },
        pdfPage: null,
      };
  }
}
