/**
 * Serves the built widget (packages/widget/dist) to any site: the stub `redline.js` with a short cache
 * (a deploy reaches every site within minutes) and its content-hashed lazy chunks cached for a year.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { route } from "../../lib/routes.ts";

const WIDGET_DIST = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../../packages/widget/dist",
);
const STUB = "redline.js";
const params = z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{1,80}\.js$/) });

export async function widgetAssetsRoutes(app: FastifyInstance, _options: { ctx: AppContext }) {
  app.get(
    "/widget/v1/:file",
    route({ summary: "The widget's script and its lazy chunks", action: "public" }),
    async (request, reply) => {
      const parsed = params.safeParse(request.params);
      if (!parsed.success) throw new NotFoundError();
      const { file } = parsed.data;
      const code = await readFile(path.join(WIDGET_DIST, file)).catch(() => null);
      if (!code) throw new NotFoundError("No such widget file.", "not-found");
      return reply
        .header("content-type", "text/javascript; charset=utf-8")
        .header(
          "cache-control",
          file === STUB
            ? "public, max-age=300, stale-while-revalidate=3600"
            : "public, max-age=31536000, immutable",
        )
        .header("access-control-allow-origin", "*")
        .header("cross-origin-resource-policy", "cross-origin")
        .header("x-content-type-options", "nosniff")
        .send(code);
    },
  );
}
