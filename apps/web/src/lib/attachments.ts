/**
 * A discussion's attached files (comments and tickets alike): the upload a composer makes at once, and the
 * address a thread links a file at. They are the project's files (SPEC §3), whatever entry holds them.
 */
import type { Attachment } from "@redline/shared";
import { api } from "./api.ts";
import { fileForm } from "./files.ts";

const enc = encodeURIComponent;

export function uploadAttachment(projectId: string, file: File) {
  return api<{ data: Attachment }>(`/api/projects/${enc(projectId)}/attachments`, {
    method: "POST",
    body: fileForm(file),
  });
}

export function attachmentUrl(projectId: string, attachment: Attachment): string {
  const sha = attachment.path.split("/").at(-1) ?? "";
  return `/api/projects/${enc(projectId)}/attachments/${sha}?name=${enc(attachment.name)}`;
}
