/**
 * Message attachments (SPEC §7: under `conversations/{id}`): uploaded first (≤ 5 MB, never a type that
 * runs or renders as code), then referenced by the message. Served only as downloads (octet-stream,
 * `attachment`, nosniff), so a hostile file never renders on the app's origin.
 */
import { createHash } from "node:crypto";
import { CONVERSATION_TEXTS, type ConversationAttachment, isForbiddenAttachment } from "@redline/shared";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { sendDownload } from "../../lib/storage/download.ts";
import type { Storage } from "../../lib/storage/storage.ts";
import { readFile } from "../pages/uploads.ts";

export const shaParams = z.object({ sha: z.string().regex(/^[0-9a-f]{64}$/) });

export async function uploadAttachment(
  storage: Storage,
  request: FastifyRequest,
  conversationId: string,
): Promise<ConversationAttachment> {
  const { bytes, filename, mimetype } = await readFile(request);
  const name = filename || "file";
  if (isForbiddenAttachment({ name, type: mimetype }))
    throw new BadRequestError(CONVERSATION_TEXTS.forbiddenType, "forbidden-file-type");
  const sha = createHash("sha256").update(bytes).digest("hex");
  const path = `conversations/${conversationId}/${sha}`;
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
