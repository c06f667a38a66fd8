/**
 * The video routes every thread shares: the resumable upload (tus: how long a video may be, create,
 * resume, continue, abandon) under a path whose caller the module authorizes (`uploaderOf`), and playing a
 * stored video with byte ranges, so a player seeks.
 */
import { Transform } from "node:stream";
import { dataAnswer, productOf, VIDEO_MESSAGES } from "@redline/shared";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ProjectRow } from "../../db/schema/index.ts";
import { NotFoundError, PlanLimitError } from "../../lib/errors.ts";
import type { PrincipalKind } from "../../lib/principal.ts";
import { route } from "../../lib/routes.ts";
import type { StoredFile } from "../../lib/storage/storage.ts";
import { assertRoomToStore } from "../plans/storage.ts";
import { videoLimitOf } from "./processing.ts";
import { setUploader, uploadOwner } from "./uploads.ts";

const uploadParams = z.object({ upload: z.string().min(1).max(200) });

/** Sends bytes `start`–`end` of a stored file (a player's Range request), skipping what comes before. */
export function sendRange(request: FastifyRequest, reply: FastifyReply, stored: StoredFile, type: string) {
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

/** The answer's content type for a stored video or poster key. */
export const videoTypeOf = (key: string, kind: "video" | "poster") =>
  kind === "poster" ? "image/jpeg" : key.endsWith(".mp4") ? "video/mp4" : "video/webm";

export interface UploadRoutes {
  /** The upload's path, e.g. `/api/tickets/:ticketId/videos` (continued at `…/:upload`). */
  path: string;
  /**
   * Authorizes the request (throws when refused): the project it uploads into and who uploads. A route
   * called cross-site sets its CORS headers on `reply` (they go with its refusals too).
   */
  uploaderOf(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ project: ProjectRow; uploader: string }>;
  /** The policy action its caller passes, for the route declarations. */
  action: string;
  /** Said after each summary: whose uploads these are. */
  who: string;
  accepts?: readonly PrincipalKind[];
}

/** tus sends its chunks as application/offset+octet-stream: the tus server reads them, not Fastify. */
export function acceptTusChunks(app: FastifyInstance): void {
  app.addContentTypeParser("application/offset+octet-stream", (_request, _payload, done) => done(null));
}

/** The plan's limit, and the tus routes of one kind of uploader (`acceptTusChunks` first). */
export function registerUploadRoutes(app: FastifyInstance, ctx: AppContext, spec: UploadRoutes): void {
  const { db } = ctx.database;
  const { path, uploaderOf, action, who } = spec;
  const accepts = spec.accepts && { accepts: spec.accepts };
  const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    await ctx.videoUploads.tus.handle(request.raw, reply.raw);
  };

  app.get(
    `${path}/limit`,
    route({
      summary: `The longest video the project owner's plan allows${who}`,
      action,
      ...accepts,
      // -1: no limit.
      response: dataAnswer(z.strictObject({ limitSeconds: z.number().int().min(-1) })),
    }),
    async (request, reply) => {
      const { project } = await uploaderOf(request, reply);
      return { data: { limitSeconds: await videoLimitOf(db, project, ctx.config.plansEnabled) } };
    },
  );

  app.post(
    path,
    route({
      summary: `Start a resumable video upload (tus)${who}`,
      action,
      ...accepts,
      response: "not-json",
    }),
    async (request, reply) => {
      const { uploader, project } = await uploaderOf(request, reply);
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
      setUploader(request.raw, `${project.id}.${uploader}`, request.url.split("?")[0]!);
      return handOver(request, reply);
    },
  );

  const continueUpload = async (request: FastifyRequest, reply: FastifyReply) => {
    const { uploader, project } = await uploaderOf(request, reply);
    const owner = uploadOwner(uploadParams.parse(request.params).upload);
    if (owner?.projectId !== project.id || owner.userId !== uploader)
      throw new NotFoundError("Upload not found.", "upload-not-found");
    return handOver(request, reply);
  };
  const declare = (summary: string) =>
    route({ summary: `${summary} (tus)${who}`, action, ...accepts, response: "not-json" });
  app.head(`${path}/:upload`, declare("How much of a video upload arrived"), continueUpload);
  app.patch(`${path}/:upload`, declare("Continue a video upload"), continueUpload);
  app.delete(`${path}/:upload`, declare("Abandon a video upload"), continueUpload);
}
