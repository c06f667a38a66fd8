/**
 * Message attachments (SPEC §7: under `conversations/{id}`): uploaded first (≤ 5 MB, never a type that
 * runs or renders as code), then referenced by the message. Served only as downloads (octet-stream,
 * `attachment`, nosniff), so a hostile file never renders on the app's origin. In a project's conversation
 * they count towards the project owner's storage (modules/plans/storage.ts): refused before storing when
 * they cannot fit, and metered again when the message that holds them is written.
 */
import { CONVERSATION_TEXTS, type ConversationAttachment, isForbiddenAttachment } from "@redline/shared";
import { eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { projects } from "../../db/schema/index.ts";
import type { Storage } from "../../lib/storage/storage.ts";
import { serveEntryFile, uploadEntryFile } from "../discussion/discussion.write.ts";
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
  const { sha, path, name, size, type } = await uploadEntryFile(
    storage,
    request,
    `conversations/${conversationId}`,
    {
      refuse: (file) =>
        isForbiddenAttachment(file)
          ? { message: CONVERSATION_TEXTS.forbiddenType, code: "forbidden-file-type" }
          : null,
      assertRoom,
    },
  );
  return { id: sha, path, name, size, type };
}

export async function serveAttachment(
  storage: Storage,
  request: FastifyRequest,
  reply: FastifyReply,
  conversationId: string,
) {
  const { sha } = shaParams.parse(request.params);
  return serveEntryFile(storage, request, reply, `conversations/${conversationId}/${sha}`, {
    message: "Attachment not found.",
    code: "attachment-not-found",
  });
}
