/**
 * Comment and ticket attachments: uploaded first (≤ 5 MB, any type), referenced by the entry
 * (discussion.write.ts `projectAttachments`), downloaded by the project's readers. Served only as downloads (`attachment`, octet-stream, nosniff), so a
 * hostile file never renders on the app's origin. They count against the project owner's storage from
 * the entry that holds them, at the size the file store tells (never the client's word).
 */
import { type Attachment, attachmentSchema, dataAnswer } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { policyActorOf } from "../../lib/policy.ts";
import { route } from "../../lib/routes.ts";
import { requireActor } from "../auth/session.ts";
import { serveEntryFile, uploadEntryFile } from "../discussion/discussion.write.ts";
import { assertRoomToStore } from "../plans/storage.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { authorizeComment } from "./comments.policy.ts";

const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const fileParams = projectParams.extend({ sha: z.string().regex(/^[0-9a-f]{64}$/) });

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
      authorizeComment(policyActorOf(actor, access), "comments.attach");
      const { name, size, type, path } = await uploadEntryFile(
        storage,
        request,
        `attachments/${project.id}`,
        {
          assertRoom: (file) => assertRoomToStore(db, project, file, ctx.config.plansEnabled),
        },
      );
      reply.status(201);
      return { data: { name, size, type, path } satisfies Attachment };
    },
  );

  app.get(
    "/api/projects/:projectId/attachments/:sha",
    route({ summary: "Download a comment attachment", action: "comments.read", response: "not-json" }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const { projectId, sha } = fileParams.parse(request.params);
      const { project, access } = await loadProject(db, actor, projectId);
      authorizeComment(policyActorOf(actor, access), "comments.read");
      return serveEntryFile(storage, request, reply, `attachments/${project.id}/${sha}`);
    },
  );
}
