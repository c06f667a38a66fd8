/**
 * Video comments over HTTP: the resumable upload (tus: create, resume, continue, abandon), authorized as
 * attaching to a comment in the project (contributors; viewers and guests are refused), and the processed
 * video and poster, read by the project's readers — the video with byte ranges, so a player seeks.
 */
import { Transform } from "node:stream";
import { productOf, VIDEO_MESSAGES } from "@redline/shared";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { NotFoundError, PlanLimitError } from "../../lib/errors.ts";
import { memberActor } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import type { StoredFile } from "../../lib/storage/storage.ts";
import { requireActor } from "../auth/session.ts";
import { assertRoomToStore } from "../plans/storage.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { setUploader, uploadOwner } from "../videos/uploads.ts";
import { loadComment, loadEntry } from "./comments.load.ts";
import { authorizeComment } from "./comments.policy.ts";
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

  /** The caller may attach to comments in this project: returns the project. */
  const authorizeUpload = async (request: FastifyRequest) => {
    const actor = await requireActor(auth, db, request);
    const { project, access } = await loadProject(db, actor, projectParams.parse(request.params).projectId);
    authorizeComment(memberActor(actor.user.id, access), "comments.attach");
    return { actor, project };
  };

  const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    await videoUploads.tus.handle(request.raw, reply.raw);
  };

  app.get(
    "/api/projects/:projectId/videos/limit",
    route({ summary: "The longest video the project owner's plan allows", action: "comments.attach" }),
    async (request) => {
      const { project } = await authorizeUpload(request);
      return { data: { limitSeconds: await videoLimitOf(db, project, ctx.config.plansEnabled) } };
    },
  );

  app.post(
    "/api/projects/:projectId/videos",
    route({ summary: "Start a resumable video upload (tus)", action: "comments.attach" }),
    async (request, reply) => {
      const { actor, project } = await authorizeUpload(request);
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
      setUploader(request.raw, `${project.id}.${actor.user.id}`);
      return handOver(request, reply);
    },
  );

  const continueUpload = async (request: FastifyRequest, reply: FastifyReply) => {
    const { actor, project } = await authorizeUpload(request);
    const owner = uploadOwner(uploadParams.parse(request.params).upload);
    if (owner?.projectId !== project.id || owner.userId !== actor.user.id)
      throw new NotFoundError("Upload not found.", "upload-not-found");
    return handOver(request, reply);
  };
  app.head(
    "/api/projects/:projectId/videos/:upload",
    route({ summary: "How much of a video upload arrived (tus)", action: "comments.attach" }),
    continueUpload,
  );
  app.patch(
    "/api/projects/:projectId/videos/:upload",
    route({ summary: "Continue a video upload (tus)", action: "comments.attach" }),
    continueUpload,
  );
  app.delete(
    "/api/projects/:projectId/videos/:upload",
    route({ summary: "Abandon a video upload (tus)", action: "comments.attach" }),
    continueUpload,
  );

  const readVideo = (kind: "video" | "poster") => async (request: FastifyRequest, reply: FastifyReply) => {
    const actor = await requireActor(auth, db, request);
    const { commentId, entryId } = entryParams.parse(request.params);
    const { comment, access } = await loadComment(db, actor, commentId);
    authorizeComment(memberActor(actor.user.id, access), "comments.read");
    const entry = await loadEntry(db, comment.id, entryId);
    const key = kind === "video" ? entry.videoKey : entry.videoPosterKey;
    const stored = key ? await ctx.storage.get(key) : null;
    if (!key || !stored) throw new NotFoundError("This comment has no video.", "video-not-found");
    const type = kind === "poster" ? "image/jpeg" : key.endsWith(".mp4") ? "video/mp4" : "video/webm";
    return sendRange(request, reply, stored, type);
  };
  app.get(
    "/api/comments/:commentId/entries/:entryId/video",
    route({ summary: "Play a comment's video", action: "comments.read" }),
    readVideo("video"),
  );
  app.get(
    "/api/comments/:commentId/entries/:entryId/poster",
    route({ summary: "A comment video's poster", action: "comments.read" }),
    readVideo("poster"),
  );
}
