/**
 * Video comments over HTTP: the resumable upload (tus: create, resume, continue, abandon), authorized as
 * attaching to a comment in the project (contributors; viewers are refused) or, under /api/share, as
 * commenting through the project's public link (its guests, when the link allows comments), and the processed
 * video and poster, read by the comment's readers (members, and guests of a public link showing its page)
 * — the video with byte ranges, so a player seeks.
 */
import { Transform } from "node:stream";
import { dataAnswer, productOf, SHARING_MESSAGES, VIDEO_MESSAGES } from "@redline/shared";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { NotFoundError, PlanLimitError } from "../../lib/errors.ts";
import { memberActor } from "../../lib/policy.ts";
import { linkGuestOf } from "../../lib/principal.ts";
import { route } from "../../lib/routes.ts";
import type { StoredFile } from "../../lib/storage/storage.ts";
import { getActor, requireActor } from "../auth/session.ts";
import { assertRoomToStore } from "../plans/storage.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { guestUploader, setUploader, uploadOwner } from "../videos/uploads.ts";
import { guestIdentityOf, linkGuestView } from "./comments.guest.operations.ts";
import { loadComment, loadEntry } from "./comments.load.ts";
import { authorizeComment, canComment } from "./comments.policy.ts";
import { videoLimitOf } from "./video.ts";

const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const uploadParams = projectParams.extend({ upload: z.string().min(1).max(200) });
const entryParams = z.object({ commentId: z.string().min(1).max(64), entryId: z.string().min(1).max(64) });

/** Sends bytes `start`–`end` of a stored file (a player's Range request), skipping what comes before. */
function sendRange(request: FastifyRequest, reply: FastifyReply, stored: StoredFile, type: string) {
  reply
    .header("content-type", type)
    .header("accept-ranges", "bytes")
    .header("x-content-type-options", "nosniff")
    .header("cache-control", "private, max-age=3600");
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? "");
  if (!range || (range[1] === "" && range[2] === "")) {
    return reply.header("content-length", stored.size).send(stored.stream);
  }
  const start = range[1] === "" ? Math.max(0, stored.size - Number(range[2])) : Number(range[1]);
  const end =
    range[1] !== "" && range[2] !== "" ? Math.min(Number(range[2]), stored.size - 1) : stored.size - 1;
  if (start > end || start >= stored.size) {
    stored.stream.destroy();
    return reply.status(416).header("content-range", `bytes */${stored.size}`).send();
  }
  let position = 0;
  const slice = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const from = Math.max(0, start - position);
      const to = Math.min(chunk.length, end + 1 - position);
      position += chunk.length;
      if (to > from) this.push(chunk.subarray(from, to));
      if (position > end) {
        this.push(null);
        stored.stream.destroy();
      }
      done();
    },
  });
  return reply
    .status(206)
    .header("content-range", `bytes ${start}-${end}/${stored.size}`)
    .header("content-length", end - start + 1)
    .send(stored.stream.pipe(slice));
}

export async function videoRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { auth, videoUploads } = ctx;
  const { db } = ctx.database;
  // tus sends its chunks as application/offset+octet-stream: the tus server reads them, not Fastify.
  app.addContentTypeParser("application/offset+octet-stream", (_request, _payload, done) => done(null));

  /** A member who may attach to comments in this project uploads as themselves. */
  const memberUploader = async (request: FastifyRequest) => {
    const actor = await requireActor(auth, db, request);
    const { project, access } = await loadProject(db, actor, projectParams.parse(request.params).projectId);
    authorizeComment(memberActor(actor.user.id, access), "comments.attach");
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
    return { project: link.project, uploader: guestUploader(guestIdentityOf(linkGuestOf(request))) };
  };

  const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    await videoUploads.tus.handle(request.raw, reply.raw);
  };

  // The same upload routes for members (/api/projects/…) and for guests of the public link (/api/share/…).
  const uploadRoutes = [
    { base: "projects", uploaderOf: memberUploader, action: "comments.attach", who: "" },
    { base: "share", uploaderOf: linkGuestUploader, action: "public", who: " as a guest of the public link" },
  ] as const;
  for (const { base, uploaderOf, action, who } of uploadRoutes) {
    app.get(
      `/api/${base}/:projectId/videos/limit`,
      route({
        summary: `The longest video the project owner's plan allows${who}`,
        action,
        // -1: no limit.
        response: dataAnswer(z.strictObject({ limitSeconds: z.number().int().min(-1) })),
      }),
      async (request) => {
        const { project } = await uploaderOf(request);
        return { data: { limitSeconds: await videoLimitOf(db, project, ctx.config.plansEnabled) } };
      },
    );

    app.post(
      `/api/${base}/:projectId/videos`,
      route({ summary: `Start a resumable video upload (tus)${who}`, action, response: "not-json" }),
      async (request, reply) => {
        const { uploader, project } = await uploaderOf(request);
        const limit = await videoLimitOf(db, project, ctx.config.plansEnabled);
        if (limit === 0)
          throw new PlanLimitError("video-not-included", VIDEO_MESSAGES.notIncluded, {
            kind: "videoMinutes",
            product: productOf(project.type),
            limit: 0,
          });
        const length = Number(request.headers["upload-length"]);
        if (Number.isSafeInteger(length) && length > 0)
          await assertRoomToStore(
            db,
            project,
            { key: `videos/${project.id}/new`, bytes: length },
            ctx.config.plansEnabled,
          );
        setUploader(request.raw, `${project.id}.${uploader}`);
        return handOver(request, reply);
      },
    );

    const continueUpload = async (request: FastifyRequest, reply: FastifyReply) => {
      const { uploader, project } = await uploaderOf(request);
      const owner = uploadOwner(uploadParams.parse(request.params).upload);
      if (owner?.projectId !== project.id || owner.userId !== uploader)
        throw new NotFoundError("Upload not found.", "upload-not-found");
      return handOver(request, reply);
    };
    app.head(
      `/api/${base}/:projectId/videos/:upload`,
      route({ summary: `How much of a video upload arrived (tus)${who}`, action, response: "not-json" }),
      continueUpload,
    );
    app.patch(
      `/api/${base}/:projectId/videos/:upload`,
      route({ summary: `Continue a video upload (tus)${who}`, action, response: "not-json" }),
      continueUpload,
    );
    app.delete(
      `/api/${base}/:projectId/videos/:upload`,
      route({ summary: `Abandon a video upload (tus)${who}`, action, response: "not-json" }),
      continueUpload,
    );
  }

  /**
   * Who may play the comment's video: whoever may read the comment — a member by their access, or else a
   * guest of the project's public link while it is on and shows the comment's page (the rule the guest
   * comment routes ask). A `<video>` sends no headers of its own, and reading needs none but the link.
   */
  const readableComment = async (request: FastifyRequest, commentId: string) => {
    const actor = await getActor(auth, db, request);
    const { comment, access } = await loadComment(db, actor, commentId);
    const member = actor && memberActor(actor.user.id, access);
    if (member && actor.user.emailVerified && canComment(member, "comments.read")) return comment;
    const link = await linkGuestView(db, ctx.config.plansEnabled, comment.projectId);
    if (link?.versions.some((version) => version.id === comment.versionId)) {
      authorizeComment(link.guest, "comments.read");
      return comment;
    }
    // Neither: the member's refusal (signed out, not verified, no access).
    await requireActor(auth, db, request);
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
    const type = kind === "poster" ? "image/jpeg" : key.endsWith(".mp4") ? "video/mp4" : "video/webm";
    return sendRange(request, reply, stored, type);
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
