/**
 * Comments on the slides of an illustration project (issue #32, SPEC §2 `?id=`, §3 Slide): the comments
 * module's own comments and threads (comments.service.ts), placed on a slide of the deck — at a point, or
 * on an object so the pin follows it. Reading them takes the deck's read right and the comments' (every
 * member); pinning one takes the right to comment (viewers may not, as on a page); replies, resolving,
 * moving, editing and deleting go through the comments' own routes. The slide, and the object, must be in
 * the deck as stored: anything else is refused with a clear 400 and nothing stored. A guest of the public
 * link (lib/principal.ts) reads them, and pins one when the link allows comments, by the same rules as on a
 * page's public link (comments.guest.operations.ts: the link's access, the guest's identity, no attachments).
 */
import {
  type Comment,
  commentsPerSlide,
  createSlideCommentSchema,
  SLIDE_COMMENT_MESSAGES,
  SLIDE_SIZE,
  slidePinPoint,
} from "@redline/shared";
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { comments as commentsTable } from "../../db/schema/index.ts";
import { together } from "../../db/together.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { operation, withParams } from "../../lib/operations.ts";
import type { PolicyActor } from "../../lib/policy.ts";
import type { LinkGuestPrincipal } from "../../lib/principal.ts";
import type { Actor } from "../auth/session.ts";
import { authorizeFiles } from "../discussion/discussion.ts";
import { projectAttachments } from "../discussion/discussion.write.ts";
import { onSlidesChanged } from "../slides/slides.events.ts";
import { deckProject, guestDeckProject } from "../slides/slides.operations.ts";
import { readDeckJson } from "../slides/slides.store.ts";
import { guestUploader } from "../videos/uploads.ts";
import { commentRef, recordCommentEvent } from "./comments.events.ts";
import { guestIdentityOf } from "./comments.guest.operations.ts";
import { videoExtras } from "./comments.operations.ts";
import { authorizeComment, COMMENT_DISCUSSION, withCommentAbilities } from "./comments.policy.ts";
import { createComment, deleteSlideComments, listSlideComments, presentMany } from "./comments.service.ts";
import { newSlideTarget } from "./comments.targets.ts";

// A slide deleted hides its comments, an undo that brings it back shows them again, and a day after the
// removal they are deleted (ADR 0044) — each in the deck update's transaction.
onSlidesChanged({
  removed: hideSlideComments,
  restored: showSlideComments,
  purged: deleteSlideComments,
});

const commentsOfSlides = (tx: Database, projectId: string, slideIds: readonly string[]) =>
  tx
    .select()
    .from(commentsTable)
    .where(and(eq(commentsTable.projectId, projectId), inArray(commentsTable.slideId, [...slideIds])))
    .orderBy(asc(commentsTable.createdAt), asc(commentsTable.id));

/** Out of sight, kept: open panels drop them (`comment.deleted`); lists leave out a slide not in the deck. */
async function hideSlideComments(tx: Database, projectId: string, slideIds: readonly string[]) {
  for (const comment of await commentsOfSlides(tx, projectId, slideIds))
    await recordCommentEvent(tx, { type: "comment.deleted", ref: commentRef(comment) });
}

/** Back with their slide: open panels take them in again, as they now read; no one is notified again. */
async function showSlideComments(tx: Database, projectId: string, slideIds: readonly string[]) {
  for (const comment of await presentMany(tx, await commentsOfSlides(tx, projectId, slideIds)))
    await recordCommentEvent(tx, { type: "comment.restored", ref: commentRef(comment), comment });
}

const id = z.string().min(1).max(64);
export const slideCommentParams = z.object({ projectId: id, slideId: id });

/** Every slide's comments as this reader sees them, where each pin now is, and each slide's count. */
export async function readSlideComments(db: Database, actor: Actor, projectId: string) {
  const { reader } = await deckProject(db, actor, projectId, "slides.read");
  return slideCommentsFor(db, reader, projectId);
}

/** The same through the public link, for its guest. */
export async function readGuestSlideComments(db: Database, plansEnabled: boolean, projectId: string) {
  const { reader } = await guestDeckProject(db, plansEnabled, projectId, "slides.read");
  return slideCommentsFor(db, reader, projectId);
}

async function slideCommentsFor(db: Database, reader: PolicyActor, projectId: string) {
  authorizeComment(reader, "comments.read");
  const [listed, deck] = await together(db, [
    () => listSlideComments(db, projectId),
    () => readDeckJson(db, projectId),
  ]);
  // A removed slide's comments are kept for an undo (ADR 0044), out of sight until their slide is back.
  const comments = listed.filter((comment) => comment.slideId && deck[comment.slideId]);
  const pins: Record<string, { x: number; y: number } | null> = {};
  for (const comment of comments) pins[comment.id] = slidePinPoint(comment, deck[comment.slideId ?? ""]);
  return {
    comments: comments.map((comment): Comment => withCommentAbilities(reader, comment)),
    pins,
    noOfComments: commentsPerSlide(comments),
  };
}

export const pinSlideComment = operation(
  "comments.create-on-slide",
  withParams(slideCommentParams, createSlideCommentSchema),
  async (ctx, actor: Actor, { projectId, slideId, target: asked, objectId, dotPosition, ...input }) => {
    const { db } = ctx.database;
    const { reader, project } = await deckProject(db, actor, projectId, "slides.read");
    authorizeComment(reader, "comments.create");
    authorizeFiles(COMMENT_DISCUSSION, reader, input);
    const target = newSlideTarget(slideId, { target: asked, objectId, dotPosition });
    await assertOnDeck(db, projectId, slideId, target.objectId);
    const attachments = await projectAttachments(ctx.storage, projectId, input.attachments);
    const created = await createComment(
      db,
      { projectId, slideId },
      { userId: actor.user.id },
      { ...input, target, attachments, deviceWidth: SLIDE_SIZE.width },
      ctx.config.plansEnabled,
      await videoExtras(ctx, project, actor.user.id, input),
    );
    return { data: withCommentAbilities(reader, created) };
  },
);

/** The slide, and the object if any, in the deck as stored: else a clear 400 (nothing is stored). */
async function assertOnDeck(db: Database, projectId: string, slideId: string, objectId?: string | null) {
  const slide = (await readDeckJson(db, projectId))[slideId];
  if (!slide) throw new BadRequestError(SLIDE_COMMENT_MESSAGES.noSlide, "slide-not-found");
  if (objectId && !slide.objects[objectId])
    throw new BadRequestError(SLIDE_COMMENT_MESSAGES.noObject, "slide-object-not-found");
}

/**
 * A guest of the public link pins a comment on a slide when the link allows comments (as on a page's link:
 * under the identity their browser sends, a video they recorded through the link if they like, no files).
 */
export const guestPinSlideComment = operation(
  "comments.guest.create-on-slide",
  withParams(slideCommentParams, createSlideCommentSchema),
  async (
    ctx,
    principal: LinkGuestPrincipal,
    { projectId, slideId, target: asked, objectId, dotPosition, ...input },
  ) => {
    const { db } = ctx.database;
    const { reader, project } = await guestDeckProject(db, ctx.config.plansEnabled, projectId, "slides.read");
    authorizeComment(reader, "comments.create");
    const guestIdentity = guestIdentityOf(principal);
    const target = newSlideTarget(slideId, { target: asked, objectId, dotPosition });
    await assertOnDeck(db, projectId, slideId, target.objectId);
    const created = await createComment(
      db,
      { projectId, slideId },
      { guestIdentity },
      { ...input, target, attachments: [], deviceWidth: SLIDE_SIZE.width },
      ctx.config.plansEnabled,
      await videoExtras(ctx, project, guestUploader(guestIdentity), input),
    );
    return { data: withCommentAbilities(reader, created) };
  },
);
