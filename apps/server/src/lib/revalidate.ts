import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/** Each kept answer's tag, computed once per buffer (a cached answer is the same buffer every time). */
const tags = new WeakMap<Buffer, string>();

function tagOf(body: Buffer): string {
  let tag = tags.get(body);
  if (tag === undefined) {
    tag = `"${createHash("sha1").update(body).digest("base64url")}"`;
    tags.set(body, tag);
  }
  return tag;
}

/** Whether an If-None-Match header names `tag` (a list, weak tags compared weakly, or `*`). */
export function matchesTag(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const candidate = part.trim();
    return candidate === "*" || candidate.replace(/^W\//, "") === tag;
  });
}

/**
 * Sends a JSON answer the browser keeps and asks again for (`Cache-Control: private, no-cache` and a strong
 * ETag of its bytes): a tab refetching an answer that has not changed gets 304 and no body, and its `fetch`
 * still sees the whole answer, from the browser's cache. The tag is of the bytes this reader would get, so
 * another reader's answer (other abilities), or the same list changed, is sent in full.
 */
export function sendRevalidatable(request: FastifyRequest, reply: FastifyReply, body: Buffer) {
  const tag = tagOf(body);
  reply.header("etag", tag).header("cache-control", "private, no-cache");
  if (matchesTag(request.headers["if-none-match"], tag)) return reply.status(304).send();
  return reply.type("application/json; charset=utf-8").send(body);
}
