/**
 * Where a comment points (issue #29 item 1, ADR 0045): one `target` (shared/targets.ts), checked on every
 * write against what the comment's version shows — a target of the wrong kind (a video time on an image,
 * an anchor on a PDF page) is a 400 and nothing is stored. Only `target` is written: the legacy columns,
 * which the previous release still reads, follow it by a trigger (migration 0040, ADR 0045).
 */
import {
  type AnchorData,
  movedTarget,
  type Target,
  type TargetContent,
  type TargetInput,
  targetContentOf,
  targetFromInput,
  targetMismatch,
  targetSchema,
  type VersionKind,
} from "@redline/shared";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { type CommentRow, versions } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";

export const TARGET_MESSAGES = {
  noPlace: "Say where the comment points: a target, or a dotPosition.",
  bothShapes: "Send the comment's target or its dotPosition, anchor and pdfPage — not both.",
  bothSlideShapes: "Send the comment's target or its dotPosition and objectId — not both.",
  onItsSlide: "A slide's comment stays on its slide and its object; only its point moves.",
  otherSlide: "The comment's target is on another slide than the one it is posted to.",
  videoPoint: "A comment on a video time has no point to move; send its target.",
} as const;

/** The target, valid by its schema and of the kind `content` shows; else a 400. */
export function checkedTarget(target: Target, content: TargetContent): Target {
  const parsed = targetSchema.safeParse(target);
  if (!parsed.success)
    throw new BadRequestError(parsed.error.issues[0]?.message ?? "Invalid target.", "invalid-target");
  const mismatch = targetMismatch(parsed.data, content);
  if (mismatch) throw new BadRequestError(mismatch, "target-mismatch");
  return parsed.data;
}

/** A new comment's target on a version of `kind`, from its `target` or its legacy fields; else a 400. */
export function newVersionTarget(input: TargetInput, kind: VersionKind): Target {
  const content = targetContentOf(kind);
  const target = targetFromInput(input, content);
  if (!target)
    throw new BadRequestError(
      input.target ? TARGET_MESSAGES.bothShapes : TARGET_MESSAGES.noPlace,
      "invalid-target",
    );
  return checkedTarget(target, content);
}

/**
 * A new comment's target on the slide `slideId`: its `target` (on that slide), or the one its older fields
 * describe (the object it sits on, and the point); else a 400.
 */
export function newSlideTarget(
  slideId: string,
  input: {
    target?: Target | undefined;
    objectId?: string | undefined;
    dotPosition?: { x: number; y: number } | undefined;
  },
): Target & { kind: "slide" } {
  const { target, objectId, dotPosition } = input;
  if (target && (objectId !== undefined || dotPosition))
    throw new BadRequestError(TARGET_MESSAGES.bothSlideShapes, "invalid-target");
  const asked: Target | null =
    target ??
    (dotPosition
      ? {
          kind: "slide",
          slideId,
          ...(objectId ? { objectId } : {}),
          point: { x: dotPosition.x, y: dotPosition.y },
        }
      : null);
  if (!asked) throw new BadRequestError(TARGET_MESSAGES.noPlace, "invalid-target");
  const checked = checkedTarget(asked, "slides");
  if (checked.kind !== "slide" || checked.slideId !== slideId)
    throw new BadRequestError(TARGET_MESSAGES.otherSlide, "target-mismatch");
  return checked;
}

/** What the comment's place shows: its version's content, or a slide. */
export async function contentOfComment(
  db: Database,
  comment: Pick<CommentRow, "versionId" | "slideId">,
): Promise<TargetContent> {
  if (!comment.versionId) return "slides";
  const [version] = await db
    .select({ kind: versions.kind })
    .from(versions)
    .where(eq(versions.id, comment.versionId));
  return targetContentOf(version?.kind ?? "snapshot");
}

/**
 * The comment's target after a move (a whole new `target`, or a new point and, on an element, a new
 * anchor), checked against its content; null when the change does not move it.
 */
export async function movedCommentTarget(
  db: Database,
  comment: Pick<CommentRow, "versionId" | "slideId" | "target">,
  change: {
    target?: Target | undefined;
    dotPosition?: { x: number; y: number } | undefined;
    anchor?: AnchorData | undefined;
  },
): Promise<Target | null> {
  if (!change.target && !change.dotPosition && !change.anchor) return null;
  if (change.target && (change.dotPosition || change.anchor))
    throw new BadRequestError(TARGET_MESSAGES.bothShapes, "invalid-target");
  const content = await contentOfComment(db, comment);
  const next = change.target ?? movedTarget(comment.target, change);
  if (!next) {
    if (change.anchor) {
      const element: Target = { kind: "element", anchor: change.anchor, point: { x: 0.5, y: 0.5 } };
      throw new BadRequestError(
        targetMismatch(element, content) ?? TARGET_MESSAGES.noPlace,
        "target-mismatch",
      );
    }
    throw new BadRequestError(TARGET_MESSAGES.videoPoint, "target-mismatch");
  }
  const checked = checkedTarget(next, content);
  const before = comment.target;
  if (
    checked.kind === "slide" &&
    (before.kind !== "slide" || checked.slideId !== before.slideId || checked.objectId !== before.objectId)
  )
    throw new BadRequestError(TARGET_MESSAGES.onItsSlide, "target-mismatch");
  return checked;
}
