/**
 * Comment attachments: uploaded first (≤ 5 MB, any type), referenced by the comment entry, downloaded
 * by the project's readers. Served only as downloads (`attachment`, octet-stream, nosniff), so a
 * hostile file never renders on the app's origin. They count against the project owner's storage from
 * the entry that holds them, at the size the file store tells (never the client's word).
 */
import { createHash } from "node:crypto";
import { type Attachment, attachmentSchema, dataAnswer } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { memberActor } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { sendDownload } from "../../lib/storage/download.ts";
import type { Storage } from "../../lib/storage/storage.ts";
import { readFile } from "../../lib/uploads.ts";
import { requireActor } from "../auth/session.ts";
import { assertRoomToStore } from "../plans/storage.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { authorizeComment } from "./comments.policy.ts";

const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const fileParams = projectParams.extend({ sha: z.string().regex(/^[0-9a-f]{64}$/) });

/**
 * The attachments a new entry carries, as stored: each must have been uploaded to this project, and its
 * size is the stored file's, so what it counts against the owner's storage is exact.
 */
export async function storedAttachments(
  storage: Storage,
  projectId: string,
  attachments: Attachment[],
): Promise<Attachment[]> {
  return Promise.all(
    attachments.map(async (attachment) => {
      const size = attachment.path.startsWith(`attachments/${projectId}/`)
        ? await storage.size(attachment.path)
        : null;
      if (size === null)
        throw new BadRequestError("Upload the attachment to this project first.", "attachment-not-found");
      return { ...attachment, size };
    }),
  );
}

export async function attachmentsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { storage } = ctx;
  const { db } = ctx.database;

  app.post(
    "/api/projects/:projectId/attachments",
    route({
      summary: "Upload a comment attachment",
      upload: true,
      action: "comments.attach",
      response: dataAnswer(attachmentSchema),
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const { project, access } = await loadProject(db, actor, projectParams.parse(request.params).projectId);
      authorizeComment(memberActor(actor.user.id, access), "comments.attach");
      const { bytes, filename, mimetype } = await readFile(request);
      const sha = createHash("sha256").update(bytes).digest("hex");
      const path = `attachments/${project.id}/${sha}`;
      await assertRoomToStore(db, project, { key: path, bytes: bytes.length }, ctx.config.plansEnabled);
      await storage.putContentAddressed(path, bytes, sha);
      reply.status(201);
      return {
        data: {
          name: filename || "file",
          size: bytes.length,
          type: mimetype,
          path,
        } satisfies Attachment,
      };
    },
  );

  app.get(
    "/api/projects/:projectId/attachments/:sha",
    route({ summary: "Download a comment attachment", action: "comments.read", response: "not-json" }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const { projectId, sha } = fileParams.parse(request.params);
      const { project, access } = await loadProject(db, actor, projectId);
      authorizeComment(memberActor(actor.user.id, access), "comments.read");
      const stored = await storage.get(`attachments/${project.id}/${sha}`);
      if (!stored) throw new NotFoundError();
      return sendDownload(request, reply, stored);
    },
  );
}
