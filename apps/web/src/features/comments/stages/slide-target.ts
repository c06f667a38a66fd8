/**
 * The slide adapter (issue #29 item 2): what a slide's comments need of their target — how a click on the
 * slide editor's stage becomes a target, where a target's pin is now, how it moves, and what the new
 * comment's line says. The stage itself is the slide editor's canvas (features/slides/slide-stage.tsx),
 * which draws the pins this gives it and hands it clicks and drags; the registry of `stageFor` is by
 * version kind, which slides do not have. Points are fractions of the slide, or of the object's box when
 * pinned to an object (`slideDotOf`, `slidePinPoint`), so the pin follows its object.
 */
import { type Slide, slideDotOf, slidePinPoint, type Target } from "@redline/shared";

export type SlideTarget = Extract<Target, { kind: "slide" }>;

type Point = { x: number; y: number };

/** The target of a comment, when it is on a slide. */
export const slideTargetOf = (comment: { target: Target }): SlideTarget | null =>
  comment.target.kind === "slide" ? comment.target : null;

/** A click at `at` (the slide's coordinates) on `slide`, on its object `objectId` if the click hit one. */
export function pickOnSlide(slide: Slide, at: Point, objectId: string | null): SlideTarget {
  const object = objectId ? (slide.objects[objectId] ?? null) : null;
  return {
    kind: "slide",
    slideId: slide.id,
    ...(object && objectId ? { objectId } : {}),
    point: slideDotOf(at, object),
  };
}

/** Where the target's pin is on `slide` now (its object may have moved); null when its object is gone. */
export function findOnSlide(target: SlideTarget, slide: Pick<Slide, "objects"> | undefined): Point | null {
  return slidePinPoint({ dotPosition: target.point, objectId: target.objectId ?? null }, slide);
}

/** The target with its pin dragged to `at` (the slide's coordinates): still on its slide and object. */
export function movedOnSlide(target: SlideTarget, slide: Pick<Slide, "objects">, at: Point): SlideTarget {
  const object = target.objectId ? (slide.objects[target.objectId] ?? null) : null;
  return { ...target, point: slideDotOf(at, object) };
}

/** The new comment's line. */
export const describeSlideTarget = (target: SlideTarget) =>
  target.objectId ? "Pinned to the selected object." : "Pinned to a point of the slide.";
