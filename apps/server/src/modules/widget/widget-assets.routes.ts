/**
 * Serves the built widget (packages/widget/dist) to any site: the stub `redline.js` with a short cache
 * (a deploy reaches every site within minutes) and its content-hashed lazy chunks cached for a year. Each
 * file is read once (again when it is rebuilt) and sent brotli- or gzip-compressed to a browser that
 * accepts it, compressed once (lib/revalidate.ts).
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { sendEncoded } from "../../lib/revalidate.ts";
import { route } from "../../lib/routes.ts";

const WIDGET_DIST = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../../packages/widget/dist",
);
const STUB = "redline.js";
const params = z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{1,80}\.js$/) });

/** Each file as last read, by name: the same buffer while the file is unchanged (so compressed once). */
const read = new Map<string, { mtimeMs: number; code: Buffer }>();

async function widgetFile(file: string): Promise<Buffer | null> {
  const filePath = path.join(WIDGET_DIST, file);
  const stats = await stat(filePath).catch(() => null);
  if (!stats?.isFile()) return null;
  const kept = read.get(file);
  if (kept?.mtimeMs === stats.mtimeMs) return kept.code;
  const code = await readFile(filePath).catch(() => null);
  if (code) read.set(file, { mtimeMs: stats.mtimeMs, code });
  return code;
}

export async function widgetAssetsRoutes(app: FastifyInstance, _options: { ctx: AppContext }) {
  app.get(
    "/widget/v1/:file",
    route({ summary: "The widget's script and its lazy chunks", action: "public", response: "not-json" }),
    async (request, reply) => {
      const parsed = params.safeParse(request.params);
      if (!parsed.success) throw new NotFoundError();
      const { file } = parsed.data;
      const code = await widgetFile(file);
      if (!code) throw new NotFoundError("No such widget file.", "not-found");
      reply
        .header("content-type", "text/javascript; charset=utf-8")
        .header(
          "cache-control",
          file === STUB
            ? "public, max-age=300, stale-while-revalidate=3600"
            : "public, max-age=31536000, immutable",
        )
        .header("access-control-allow-origin", "*")
        .header("cross-origin-resource-policy", "cross-origin")
        .header("x-content-type-options", "nosniff");
      return sendEncoded(request, reply, code);
    },
  );
}
