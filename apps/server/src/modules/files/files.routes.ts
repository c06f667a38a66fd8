import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { NotFoundError } from "../../lib/errors.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".gif": "image/gif",
};

/** Stored files. Keys carry a content hash, so they are cached for a year (SPEC §7). */
export async function filesRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get<{ Params: { "*": string } }>("/files/*", async (request, reply) => {
    const key = request.params["*"];
    const file = await ctx.storage.get(key);
    const type = CONTENT_TYPES[path.extname(key).toLowerCase()];
    if (!file || !type) throw new NotFoundError();
    return reply
      .header("content-type", type)
      .header("content-length", file.size)
      .header("cache-control", "private, max-age=31536000")
      .header("x-content-type-options", "nosniff")
      .send(file.stream);
  });
}
