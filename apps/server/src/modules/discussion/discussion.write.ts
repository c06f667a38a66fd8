/**
 * Writing a discussion's entries, the same for every subject (discussion.ts): the files an entry carries
 * (uploaded first, counted at the size the file store tells), the transaction that stores a new entry and
 * meters the project owner's storage, and an author's edit.
 */
import { createHash } from "node:crypto";
import type { Attachment } from "@redline/shared";
import { eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Database } from "../../db/index.ts";
import type { commentEntries, ticketEntries } from "../../db/schema/index.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { sendDownload } from "../../lib/storage/download.ts";
import type { Storage } from "../../lib/storage/storage.ts";
import { readFile } from "../../lib/uploads.ts";
import { type FileToStore, meterStorage } from "../plans/storage.ts";

import type { Tx } from "../videos/processing.ts";

/** A subject's text for a refusal: what the caller reads, and the code a client may test. */
export interface Refusal {
  message: string;
  code: string;
}

/**
 * The files a new entry carries, as stored: each must have been uploaded to the subject's place (`isHere`),
 * and its size is the stored file's, so what it counts against the owner's storage is exact.
 */
export async function storedAttachments<File extends { path: string; size: number }>(
  storage: Storage,
  attachments: readonly File[],
  isHere: (attachment: File) => boolean,
  notUploaded: Refusal,
): Promise<File[]> {
  return Promise.all(
    attachments.map(async (attachment) => {
      const size = isHere(attachment) ? await storage.size(attachment.path) : null;
      if (size === null) throw new BadRequestError(notUploaded.message, notUploaded.code);
      return { ...attachment, size };
    }),
  );
}

/**
 * The files of a comment's or a ticket's entry: uploaded to the project first (its attachments route), sized
 * as stored.
 */
export const projectAttachments = (storage: Storage, projectId: string, attachments: readonly Attachment[]) =>
  storedAttachments(storage, attachments, (file) => file.path.startsWith(`attachments/${projectId}/`), {
    message: "Upload the attachment to this project first.",
    code: "attachment-not-found",
  });

/**
 * Stores a new entry in one transaction: the owner's storage is measured before (when the entry carries
 * files in a project), `insert` writes the entry, the meter refuses (402) what grew past the limit, and
 * `after` does the subject's own steps (its modified time, its event) in the same transaction.
 */
export async function writeEntry<Written, Answer>(
  db: Database,
  place: { projectId: string | null; plansEnabled: boolean; carriesFiles: boolean },
  insert: (tx: Tx) => Promise<Written>,
  after: (tx: Tx, written: Written) => Promise<Answer>,
): Promise<Answer> {
  return db.transaction(async (tx) => {
    const meter =
      place.carriesFiles && place.projectId
        ? await meterStorage(tx, place.projectId, place.plansEnabled)
        : null;
    const written = await insert(tx);
    await meter?.check();
    return after(tx, written);
  });
}

/** An author's edit: the entry's new text, marked edited now. */
export async function editEntryText(
  tx: Tx,
  entries: typeof commentEntries | typeof ticketEntries,
  entryId: string,
  text: string,
): Promise<void> {
  // Both tables have the same `body` and `edited_at`; Drizzle types an update per table.
  const table = entries as typeof commentEntries;
  await tx.update(table).set({ body: text, editedAt: new Date() }).where(eq(table.id, entryId));
}

/** An uploaded file, stored by its content under the subject's folder. */
export interface UploadedFile {
  sha: string;
  path: string;
  name: string;
  size: number;
  type: string;
}

/**
 * Reads an upload and stores it under `folder` by its content, after the subject's checks: `refuse`
 * (a type it never takes) and `assertRoom` (402 when the project owner has no room for it).
 */
export async function uploadEntryFile(
  storage: Storage,
  request: FastifyRequest,
  folder: string,
  checks: {
    refuse?: (file: { name: string; type: string }) => Refusal | null;
    assertRoom?: (file: FileToStore) => Promise<void>;
  } = {},
): Promise<UploadedFile> {
  const { bytes, filename, mimetype } = await readFile(request);
  const name = filename || "file";
  const refusal = checks.refuse?.({ name, type: mimetype });
  if (refusal) throw new BadRequestError(refusal.message, refusal.code);
  const sha = createHash("sha256").update(bytes).digest("hex");
  const path = `${folder}/${sha}`;
  await checks.assertRoom?.({ key: path, bytes: bytes.length });
  await storage.putContentAddressed(path, bytes, sha);
  return { sha, path, name, size: bytes.length, type: mimetype };
}

/** Serves a stored file of an entry only as a download (octet-stream, `attachment`, nosniff). */
export async function serveEntryFile(
  storage: Storage,
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
  notFound?: Refusal,
) {
  const stored = await storage.get(path);
  if (!stored) throw notFound ? new NotFoundError(notFound.message, notFound.code) : new NotFoundError();
  return sendDownload(request, reply, stored);
}
