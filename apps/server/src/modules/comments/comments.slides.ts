/**
 * Comments on the slides of an illustration project (issue #32, SPEC §2 `?id=`, §3 Slide): the comments
 * module's own comments and threads (comments.service.ts), placed on a slide of the deck — at a point, or
 * on an object so the pin follows it. Reading them takes the deck's read right and the comments' (every
 * member); pinning one takes the right to comment (viewers may not, as on a page); replies, resolving,
 * moving, editing and deleting go through the comments' own routes. The slide, and the object, must be in
 * the deck as stored: anything else is refused with a clear 400 and nothing stored.
 */
import {
  type Comment,
  commentsPerSlide,
  createSlideCommentSchema,
  SLIDE_COMMENT_MESSAGES,
  SLIDE_SIZE,
  slidePinPoint,
} from "@redline/shared";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { operation, withParams } from "../../lib/operations.ts";
import type { Actor } from "../auth/session.ts";
import { deckProject } from "../slides/slides.operations.ts";
import { readDeckJson } from "../slides/slides.store.ts";
import { storedAttachments } from "./attachments.routes.ts";
import { videoExtras } from "./comments.operations.ts";
import { authorizeComment, withCommentAbilities } from "./comments.policy.ts";
import { createComment, listSlideComments } from "./comments.service.ts";

const id = z.string().min(1).max(64);
export const slideCommentParams = z.object({ projectId: id, slideId: id });

/** Every slide's comments as this reader sees them, where each pin now is, and each slide's count. */
export async function readSlideComments(db: Database, actor: Actor, projectId: string) {
  const { reader } = await deckProject(db, actor, projectId, "slides.read");
  authorizeComment(reader, "comments.read");
  const [comments, deck] = await Promise.all([listSlideComments(db, projectId), readDeckJson(db, projectId)]);
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
  async (ctx, actor: Actor, { projectId, slideId, objectId, ...input }) => {
    const { db } = ctx.database;
    const { reader, project } = await deckProject(db, actor, projectId, "slides.read");
    authorizeComment(reader, "comments.create");
    if (input.attachments.length > 0 || input.video) authorizeComment(reader, "comments.attach");
    const slide = (await readDeckJson(db, projectId))[slideId];
    if (!slide) throw new BadRequestError(SLIDE_COMMENT_MESSAGES.noSlide, "slide-not-found");
    if (objectId && !slide.objects[objectId])
      throw new BadRequestError(SLIDE_COMMENT_MESSAGES.noObject, "slide-object-not-found");
    const attachments = await storedAttachments(ctx.storage, projectId, input.attachments);
    const created = await createComment(
      db,
      { projectId, slideId, objectId: objectId ?? null },
      { userId: actor.user.id },
      { ...input, attachments, deviceWidth: SLIDE_SIZE.width },
      ctx.config.plansEnabled,
      await videoExtras(ctx, project, actor.user.id, input),
    );
    return { data: withCommentAbilities(reader, created) };
  },
);
