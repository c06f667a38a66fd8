/**
 * Comments through the public link, the writes (lib/operations.ts): a link guest (lib/principal.ts) pins a
 * comment or replies when the link allows comments, named by the identity their browser sends (SPEC §3
 * guest identity, or `public` for 'Anonymous'), with a video they recorded through the link's upload routes
 * (video.routes.ts) if they like. Writing needs the link's canComment; reading only the link. A reply
 * answers a page's comment or a slide's (an illustration project's link, comments.slides.ts).
 */
import { createCommentSchema, parseGuestIdentity, replySchema, SHARING_MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { comments } from "../../db/schema/index.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { operation, withParams } from "../../lib/operations.ts";
import type { LinkGuestPrincipal } from "../../lib/principal.ts";
import { linkGuestView } from "../sharing/sharing.load.ts";
import { guestDeckProject } from "../slides/slides.operations.ts";
import { guestUploader } from "../videos/uploads.ts";
import { videoExtras } from "./comments.operations.ts";
import { authorizeComment, withCommentAbilities } from "./comments.policy.ts";
import { addReply, createComment } from "./comments.service.ts";
import { newVersionTarget } from "./comments.targets.ts";

export { linkGuestView };

export const guestVersionParams = z.object({
  projectId: z.string().min(1).max(64),
  versionId: z.string().min(1).max(64),
});
const guestCommentParams = z.object({
  projectId: z.string().min(1).max(64),
  commentId: z.string().min(1).max(64),
});

/** The version, if the public link is on and shows it, and the guest as the policy sees them. */
export async function guestVisibleVersion(
  db: Database,
  plansEnabled: boolean,
  projectId: string,
  versionId: string,
) {
  const view = await linkGuestView(db, plansEnabled, projectId);
  if (!view) throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
  const version = view.versions.find((v) => v.id === versionId);
  if (!version) throw new NotFoundError("Page does not exist.", "page-not-found");
  return { version, guest: view.guest, project: view.project };
}

/** The identity a guest writes under: what their browser sent, or 400 asking for a name. */
export function guestIdentityOf(principal: LinkGuestPrincipal): string {
  const identity = principal.identity ?? undefined;
  if (!identity || !parseGuestIdentity(identity))
    throw new BadRequestError("Tell us your name before commenting.", "guest-identity");
  return identity;
}

export const guestPinComment = operation(
  "comments.guest.create",
  withParams(guestVersionParams, createCommentSchema),
  async (ctx, principal: LinkGuestPrincipal, { projectId, versionId, ...input }) => {
    const { db } = ctx.database;
    const { version, guest, project } = await guestVisibleVersion(
      db,
      ctx.config.plansEnabled,
      projectId,
      versionId,
    );
    authorizeComment(guest, "comments.create");
    const guestIdentity = guestIdentityOf(principal);
    const target = newVersionTarget(input, version.kind);
    const created = await createComment(
      db,
      version,
      { guestIdentity },
      { ...input, target, attachments: [] },
      ctx.config.plansEnabled,
      await videoExtras(ctx, project, guestUploader(guestIdentity), input),
    );
    return { data: withCommentAbilities(guest, created) };
  },
);

export const guestReply = operation(
  "comments.guest.reply",
  withParams(guestCommentParams, replySchema),
  async (ctx, principal: LinkGuestPrincipal, { projectId, commentId, ...input }) => {
    const { db } = ctx.database;
    const [comment] = await db.select().from(comments).where(eq(comments.id, commentId));
    if (!comment || comment.projectId !== projectId)
      throw new NotFoundError("Comment not found.", "comment-not-found");
    // A page's comment is answered where the link shows its version; a slide's where it shows the deck.
    const { guest, project } = comment.versionId
      ? await guestVisibleVersion(db, ctx.config.plansEnabled, projectId, comment.versionId)
      : await guestDeckProject(db, ctx.config.plansEnabled, projectId, "slides.read").then(
          ({ reader, project }) => ({ guest: reader, project }),
        );
    authorizeComment(guest, "comments.reply");
    const guestIdentity = guestIdentityOf(principal);
    const replied = await addReply(
      db,
      comment,
      { guestIdentity },
      { ...input, attachments: [] },
      ctx.config.plansEnabled,
      await videoExtras(ctx, project, guestUploader(guestIdentity), input),
    );
    return { data: withCommentAbilities(guest, replied) };
  },
);
