/**
 * The one input boundary every route inherits, installed by app.ts before any route: nothing a client
 * sends reaches a handler — or the database — unless it is well formed.
 *
 * - Path ids (every parameter named `…Id`) must look like an id: a malformed one is 404, as a missing
 *   one would be, never a database error.
 * - Strings may not hold NUL or lone UTF-16 surrogates (PostgreSQL refuses both in text and jsonb): 400,
 *   in path parameters, query strings and JSON bodies alike, keys and nested values included.
 * - JSON bodies are bounded in size (Fastify's bodyLimit, 413) and nesting depth (400) before they are
 *   parsed, so nothing downstream — better-auth re-serialises bodies — can overflow the stack.
 */
import type { FastifyInstance } from "fastify";
import secureJson from "secure-json-parse";
import { BadRequestError, NotFoundError } from "./errors.ts";

/** Our ids (128-bit base64url), better-auth's user ids, and named fixtures such as the demo project. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Deeper than any body the API accepts (the deepest, rich text in an inspect change, is < 10). */
export const MAX_JSON_DEPTH = 64;

/** NUL, or a UTF-16 surrogate without its pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this refuses
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A string PostgreSQL can store as text: no NUL, no unpaired surrogate. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** The string with NUL removed and unpaired surrogates replaced by U+FFFD (for names we keep). */
export function storableText(value: string): string {
  return value
    .replaceAll("\u0000", "")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** The first string (key or value) in a parsed JSON value that PostgreSQL could not store, if any. */
export function findUnstorableText(value: unknown, path = "body"): string | null {
  if (typeof value === "string") return isStorableText(value) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}.${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) return `${path} (a key)`;
      const found = findUnstorableText(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

/** How deeply the JSON text nests arrays and objects, counted without parsing it. */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 92)
        i++; // backslash: skip the escaped character
      else if (char === 34) inString = false;
      continue;
    }
    if (char === 34) inString = true;
    else if (char === 123 || char === 91) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (char === 125 || char === 93) depth--;
  }
  return deepest;
}

const unstorable = (where: string) =>
  new BadRequestError(
    `${where}: text may not contain NUL characters or unpaired surrogates.`,
    "invalid-text",
  );

export function installInputBoundary(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === "") return done(null, undefined);
    if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH)
      return done(new BadRequestError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels.`, "json-too-deep"));
    let value: unknown;
    try {
      // As Fastify's own parser does: a "__proto__" or "constructor.prototype" key is refused, not kept.
      value = secureJson.parse(text, undefined, { protoAction: "error", constructorAction: "error" });
    } catch {
      return done(new BadRequestError("The body is not valid JSON.", "invalid-json"));
    }
    const where = findUnstorableText(value);
    if (where) return done(unstorable(where));
    done(null, value);
  });

  app.addHook("preValidation", async (request) => {
    const params = (request.params ?? {}) as Record<string, string>;
    for (const [name, value] of Object.entries(params)) {
      if (name.endsWith("Id") && !ID.test(value)) throw new NotFoundError("Not found.", "not-found");
      if (!isStorableText(value)) throw unstorable(`path ${name}`);
    }
    const query = (request.query ?? {}) as Record<string, unknown>;
    const where = findUnstorableText(query, "query");
    if (where) throw unstorable(where);
  });
}
