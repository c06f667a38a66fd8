/**
 * Message attachments (SPEC §7: under `conversations/{id}`): uploaded first (≤ 5 MB, never a type that
 * runs or renders as code), then referenced by the message. Served only as downloads (octet-stream,
 * `attachment`, nosniff), so a hostile file never renders on the app's origin. In a project's conversation
 * they count towards the project owner's storage (modules/plans/storage.ts): refused before storing when
 * they cannot fit, and metered again when the message that holds them is written.
 */
import { createHash } from "node:crypto";
import { CONVERSATION_TEXTS, type ConversationAttachment, isForbiddenAttachment } from "@redline/shared";
import { eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { projects } from "../../db/schema/index.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { sendDownload } from "../../lib/storage/download.ts";
import type { Storage } from "../../lib/storage/storage.ts";
import { readFile } from "../../lib/uploads.ts";
import { assertRoomToStore, type FileToStore } from "../plans/storage.ts";

export const shaParams = z.object({ sha: z.string().regex(/^[0-9a-f]{64}$/) });

/** The room check of a project conversation's uploads (none for a support conversation: no project). */
export function roomInProject(
  db: Database,
  projectId: string | null,
  plansEnabled: boolean,
): ((file: FileToStore) => Promise<void>) | undefined {
  if (!projectId) return undefined;
  return async (file) => {
    const [project] = await db
      .select({ ownerId: projects.ownerId, type: projects.type })
      .from(projects)
      .where(eq(projects.id, projectId));
    if (project) await assertRoomToStore(db, project, file, plansEnabled);
  };
}

export async function uploadAttachment(
  storage: Storage,
  request: FastifyRequest,
  conversationId: string,
  /** Refuses (402) a file the conversation's project owner has no room for. */
  assertRoom?: (file: FileToStore) => Promise<void>,
): Promise<ConversationAttachment> {
  const { bytes, filename, mimetype } = await readFile(request);
  const name = filename || "file";
  if (isForbiddenAttachment({ name, type: mimetype }))
    throw new BadRequestError(CONVERSATION_TEXTS.forbiddenType, "forbidden-file-type");
  const sha = createHash("sha256").update(bytes).digest("hex");
  const path = `conversations/${conversationId}/${sha}`;
  await assertRoom?.({ key: path, bytes: bytes.length });
  await storage.putContentAddressed(path, bytes, sha);
  return { id: sha, path, name, size: bytes.length, type: mimetype };
}

export async function serveAttachment(
  storage: Storage,
  request: FastifyRequest,
  reply: FastifyReply,
  conversationId: string,
) {
  const { sha } = shaParams.parse(request.params);
  const stored = await storage.get(`conversations/${conversationId}/${sha}`);
  if (!stored) throw new NotFoundError("Attachment not found.", "attachment-not-found");
  return sendDownload(request, reply, stored);
}
