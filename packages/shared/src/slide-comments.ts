/**
 * Comments on slides (SPEC §2 `?id=`, §3 Slide comments and noOfComments; issue #32): the same comments
 * and threads as a page's, placed on a slide of an illustration project's deck — at a point of the slide,
 * or on one of its objects, so the pin moves with the object. `dotPosition` is a fraction of the slide, or
 * of the object's box for an object's comment; `slidePinPoint` turns it into the slide's coordinates with
 * the object as it now is (both sides draw and answer with it).
 */
import { z } from "zod";
import { commentSchema, createCommentSchema } from "./comments.ts";
import { SLIDE_SIZE, type Slide } from "./slides.ts";

const id = z.string().min(1).max(64);

/**
 * POST /api/projects/{id}/slides/{slideId}/comments: a pin at a point of the slide or on an object — its
 * `target` (a slide target on this slide, targets.ts), or the older `dotPosition` and `objectId`; not both.
 */
export const createSlideCommentSchema = createCommentSchema
  .omit({ anchor: true, pdfPage: true, deviceWidth: true })
  .extend({
    /** A fraction of the slide, or of the object's box. */
    dotPosition: createCommentSchema.shape.dotPosition,
    /** The object the pin sits on (it follows it); left out for a point of the slide. */
    objectId: id.optional(),
  })
  .strict();
export type CreateSlideCommentInput = z.input<typeof createSlideCommentSchema>;

export const SLIDE_COMMENT_MESSAGES = {
  noSlide: "This slide does not exist any more.",
  noObject: "The object you commented on is no longer on this slide.",
} as const;

const point = z.strictObject({ x: z.number(), y: z.number() });

/** A slide's comment as the API answers it: a Comment (comments.ts) whose place is a slide. */
export const slideCommentSchema = commentSchema.extend({
  pageId: z.null(),
  versionId: z.null(),
  slideId: id,
  objectId: id.nullable(),
  thread: commentSchema.shape.thread.min(1),
});

/**
 * GET /api/projects/{id}/slide-comments: every slide's comments (a page's Comment each), where each pin
 * now is on its slide (null: its object was deleted) and each slide's count (SPEC §3 noOfComments).
 */
export const slideCommentsAnswerSchema = z.strictObject({
  comments: z.array(slideCommentSchema),
  pins: z.record(id, point.nullable()),
  noOfComments: z.record(id, z.number().int().min(0)),
});

/**
 * Where a slide comment's pin is drawn, in the slide's coordinates: on its object (turned with it, about
 * the object's top-left corner as the canvas turns it), or at its point of the slide. Null when the
 * object is gone.
 */
export function slidePinPoint(
  comment: { dotPosition: { x: number; y: number }; objectId: string | null },
  slide: Pick<Slide, "objects"> | undefined,
): { x: number; y: number } | null {
  if (!comment.objectId) {
    return { x: comment.dotPosition.x * SLIDE_SIZE.width, y: comment.dotPosition.y * SLIDE_SIZE.height };
  }
  const object = slide?.objects[comment.objectId];
  if (!object) return null;
  const dx = comment.dotPosition.x * object.width;
  const dy = comment.dotPosition.y * object.height;
  const turn = (object.rotation * Math.PI) / 180;
  return {
    x: object.x + dx * Math.cos(turn) - dy * Math.sin(turn),
    y: object.y + dx * Math.sin(turn) + dy * Math.cos(turn),
  };
}

/** Unresolved and resolved comments per slide (SPEC §3 Slide noOfComments). */
export function commentsPerSlide(comments: readonly { slideId: string | null }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const comment of comments)
    if (comment.slideId) counts[comment.slideId] = (counts[comment.slideId] ?? 0) + 1;
  return counts;
}

const fraction = (value: number) => Math.min(1, Math.max(0, value));

/**
 * The inverse of `slidePinPoint`: a point of the slide (its coordinates) as a comment's `dotPosition` —
 * a fraction of the object's box (turned back by its rotation) when pinned to it, else of the slide.
 */
export function slideDotOf(
  point: { x: number; y: number },
  object: { x: number; y: number; width: number; height: number; rotation: number } | null,
): { x: number; y: number } {
  if (!object) return { x: fraction(point.x / SLIDE_SIZE.width), y: fraction(point.y / SLIDE_SIZE.height) };
  const turn = (-object.rotation * Math.PI) / 180;
  const dx = point.x - object.x;
  const dy = point.y - object.y;
  return {
    x: fraction((dx * Math.cos(turn) - dy * Math.sin(turn)) / object.width),
    y: fraction((dx * Math.sin(turn) + dy * Math.cos(turn)) / object.height),
  };
}
