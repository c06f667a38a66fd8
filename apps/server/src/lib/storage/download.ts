/**
 * A stored file sent as a download (comment and message attachments): never rendered by the browser
 * (octet-stream, nosniff, attachment), named by the `?name=` the link carries, kept by the reader's cache.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { StoredFile } from "./storage.ts";

const fileName = z.string().max(200).catch("file");

export function sendDownload(request: FastifyRequest, reply: FastifyReply, stored: StoredFile) {
  const name = fileName.parse((request.query as { name?: unknown }).name ?? "file");
  return reply
    .header("content-type", "application/octet-stream")
    .header("content-length", stored.size)
    .header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
    .header("x-content-type-options", "nosniff")
    .header("cache-control", "private, max-age=31536000")
    .send(stored.stream);
}
