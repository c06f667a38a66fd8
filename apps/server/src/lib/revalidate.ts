import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import negotiate from "@fastify/accept-negotiator";
import type { FastifyReply, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";

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

type Encoding = "br" | "gzip";
/** Preferred first when a client accepts both with the same weight (browsers send "gzip, deflate, br, zstd"). */
const ENCODINGS: Encoding[] = ["br", "gzip"];
/** Answers shorter than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_FROM_BYTES = 1024;

const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  // Quality 5: about gzip's time for a clearly smaller answer (the default, 11, takes ~50× as long).
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 6 }),
};

/**
 * Compressed answers by their identity tag (a hash of the bytes) and encoding, so the same bytes are
 * compressed once whether they come back as the same buffer (a kept answer, a built file) or as new ones
 * (a snapshot read again); least recently sent go first past the size bound. Made off the event loop.
 */
const COMPRESSED_BYTES = 64 * 1024 * 1024;
const compressed = new LRUCache<string, Buffer>({
  maxSize: COMPRESSED_BYTES,
  sizeCalculation: (buffer) => Math.max(buffer.length, 1),
});
const compressing = new Map<string, Promise<Buffer>>();

async function compressedOf(body: Buffer, encoding: Encoding): Promise<Buffer> {
  const key = `${tagOf(body)}${encoding}`;
  const kept = compressed.get(key);
  if (kept) return kept;
  let made = compressing.get(key);
  if (!made) {
    made = compressors[encoding](body).finally(() => compressing.delete(key));
    compressing.set(key, made);
    compressed.set(key, await made);
  }
  return made;
}

/** The encoding to send `body` in: one the client accepts, for an answer worth compressing; else none. */
export function encodingFor(acceptEncoding: string | undefined, body: Buffer): Encoding | null {
  if (!acceptEncoding || body.length < COMPRESS_FROM_BYTES) return null;
  return negotiate(acceptEncoding, ENCODINGS);
}

/**
 * Sends an answer (JSON unless `type` says otherwise) the browser keeps and asks again for (`Cache-Control: private, no-cache` and a strong
 * ETag of its bytes): a tab refetching an answer that has not changed gets 304 and no body, and its `fetch`
 * still sees the whole answer, from the browser's cache. The tag is of the bytes this reader would get, so
 * another reader's answer (other abilities), or the same list changed, is sent in full.
 *
 * A client that accepts compression (every browser) gets the answer brotli- or gzip-encoded, compressed once
 * per distinct answer: a 164 kB list of 200 comments goes as ~15 kB. Each encoding is its own representation
 * with its own strong tag (the identity tag with `-br` or `-gzip` inside the quotes, RFC 9110 §8.8.3), and
 * the answer varies on Accept-Encoding.
 */
export async function sendRevalidatable(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Buffer,
  type = "application/json; charset=utf-8",
) {
  const encoding = encodingFor(request.headers["accept-encoding"], body);
  const identityTag = tagOf(body);
  const tag = encoding ? `${identityTag.slice(0, -1)}-${encoding}"` : identityTag;
  reply.header("etag", tag).header("cache-control", "private, no-cache");
  if (matchesTag(request.headers["if-none-match"], tag)) return varyOnEncoding(reply).status(304).send();
  reply.type(type);
  return sendEncoded(request, reply, body);
}

/**
 * Sends a kept answer (the same buffer each time: a cached list, a built file) in the encoding the client
 * accepts, compressed once per buffer, with Vary: Accept-Encoding; as it is to a client that accepts none.
 */
export async function sendEncoded(request: FastifyRequest, reply: FastifyReply, body: Buffer) {
  const encoding = encodingFor(request.headers["accept-encoding"], body);
  varyOnEncoding(reply);
  if (!encoding) return reply.send(body);
  const encoded = await compressedOf(body, encoding);
  return reply.header("content-encoding", encoding).send(encoded);
}

/** JSON answers from this size on go compressed to a client that accepts it, whichever route sends them. */
export const COMPRESS_JSON_FROM_BYTES = 16 * 1024;

/**
 * onSend: a large JSON answer (a board's tickets, a long project list) goes brotli- or gzip-encoded to a client
 * that accepts it — compressed once per distinct answer, since compressed bytes are kept by content hash.
 * Answers already encoded (sendEncoded, sendRevalidatable), streams and small answers pass as they are.
 */
export async function compressLargeJson(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.hasHeader("content-encoding")) return payload;
  if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
  const type = reply.getHeader("content-type");
  if (typeof type !== "string" || !type.startsWith("application/json")) return payload;
  const body = typeof payload === "string" ? Buffer.from(payload) : payload;
  if (body.length < COMPRESS_JSON_FROM_BYTES) return payload;
  varyOnEncoding(reply);
  const encoding = encodingFor(request.headers["accept-encoding"], body);
  if (!encoding) return payload;
  reply.header("content-encoding", encoding).removeHeader("content-length");
  return compressedOf(body, encoding);
}

/** Adds Accept-Encoding to the answer's Vary (kept beside whatever it varies on already). */
function varyOnEncoding(reply: FastifyReply): FastifyReply {
  const vary = reply.getHeader("vary");
  if (typeof vary === "string" && /accept-encoding/i.test(vary)) return reply;
  return reply.header("vary", vary ? `${vary}, accept-encoding` : "accept-encoding");
}
