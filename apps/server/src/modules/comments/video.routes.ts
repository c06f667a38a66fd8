/**
 * Video comments over HTTP: the resumable upload (tus: create, resume, continue, abandon), authorized as
 * attaching to a comment in the project (contributors; viewers are refused) or, under /api/share, as
 * commenting through the project's public link (its guests, when the link allows comments), and the processed
 * video and poster, read by the comment's readers (members, and guests of a public link showing its page)
 * — the video with byte ranges, so a player seeks.
 */
import { SHARING_MESSAGES } from "@redline/shared";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { THROUGH_THE_LINK, throughLink } from "../../lib/principal.ts";
import { route } from "../../lib/routes.ts";
import { getActor, requireActor } from "../auth/session.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { guestUploader } from "../videos/uploads.ts";
import { acceptTusChunks, registerUploadRoutes, sendRange, videoTypeOf } from "../videos/video.routes.ts";
import { guestIdentityOf, linkGuestView } from "./comments.guest.operations.ts";
import { loadComment, loadEntry } from "./comments.load.ts";
import { authorizeComment, canComment } from "./comments.policy.ts";

const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const entryParams = z.object({ commentId: z.string().min(1).max(64), entryId: z.string().min(1).max(64) });

export async function videoRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { db } = ctx.database;
  acceptTusChunks(app);

  /** A member who may attach to comments in this project uploads as themselves. */
  const memberUploader = async (request: FastifyRequest) => {
    const actor = await requireActor(request);
    const { project, access } = await loadProject(db, actor, projectParams.parse(request.params).projectId);
    authorizeComment(policyActorOf(actor, access), "comments.attach");
    return { project, uploader: actor.user.id };
  };
  /** A guest of the public link who may comment through it uploads as their identity (`guestUploader`). */
  const linkGuestUploader = async (request: FastifyRequest) => {
    const link = await linkGuestView(
      db,
      ctx.config.plansEnabled,
      projectParams.parse(request.params).projectId,
    );
    if (!link) throw new NotFoundError(SHARING_MESSAGES.notAccessible, "project-not-accessible");
    authorizeComment(link.guest, "comments.create");
    return { project: link.project, uploader: guestUploader(guestIdentityOf(throughLink(request))) };
  };

  // The same upload routes for members (/api/projects/…) and for guests of the public link (/api/share/…).
  registerUploadRoutes(app, ctx, {
    path: "/api/projects/:projectId/videos",
    uploaderOf: memberUploader,
    action: "comments.attach",
    who: "",
  });
  registerUploadRoutes(app, ctx, {
    path: "/api/share/:projectId/videos",
    uploaderOf: linkGuestUploader,
    action: "public",
    accepts: THROUGH_THE_LINK,
    who: " as a guest of the public link",
  });

  /**
   * Who may play the comment's video: whoever may read the comment — a member by their access, or else a
   * guest of the project's public link while it is on and shows the comment's page (the rule the guest
   * comment routes ask). A `<video>` sends no headers of its own, and reading needs none but the link.
   */
  const readableComment = async (request: FastifyRequest, commentId: string) => {
    const actor = await getActor(request);
    const { comment, access } = await loadComment(db, actor, commentId);
    const member = actor && policyActorOf(actor, access);
    if (member && actor.user.emailVerified && canComment(member, "comments.read")) return comment;
    const link = await linkGuestView(db, ctx.config.plansEnabled, comment.projectId);
    if (link?.versions.some((version) => version.id === comment.versionId)) {
      authorizeComment(link.guest, "comments.read");
      return comment;
    }
    // Neither: the member's refusal (signed out, not verified, no access).
    await requireActor(request);
    authorizeComment(member!, "comments.read");
    throw new NotFoundError("Comment not found.", "comment-not-found");
  };

  const readVideo = (kind: "video" | "poster") => async (request: FastifyRequest, reply: FastifyReply) => {
    const { commentId, entryId } = entryParams.parse(request.params);
    const comment = await readableComment(request, commentId);
    const entry = await loadEntry(db, comment.id, entryId);
    const key = kind === "video" ? entry.videoKey : entry.videoPosterKey;
    const stored = key ? await ctx.storage.get(key) : null;
    if (!key || !stored) throw new NotFoundError("This comment has no video.", "video-not-found");
    return sendRange(request, reply, stored, videoTypeOf(key, kind));
  };
  app.get(
    "/api/comments/:commentId/entries/:entryId/video",
    route({
      summary: "Play a comment's video (members, and guests of a public link that shows its page)",
      action: "comments.read",
      accepts: ["session", "token", "link-guest"],
      response: "not-json",
    }),
    readVideo("video"),
  );
  app.get(
    "/api/comments/:commentId/entries/:entryId/poster",
    route({
      summary: "A comment video's poster (members, and guests of a public link that shows its page)",
      action: "comments.read",
      accepts: ["session", "token", "link-guest"],
      response: "not-json",
    }),
    readVideo("poster"),
  );
}
