/**
 * The content origin: a second listener that serves captured pages, their assets and uploaded files,
 * never on the app's origin. Documents need a signed URL from the app; assets are content-addressed and
 * public. Every snapshot is sandboxed by CSP too (opaque origin, no scripts but ours, no network but its
 * own assets), so even opened outside our iframe it can touch nothing of the app.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { eq } from "drizzle-orm";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import type { AppContext } from "../../context.ts";
import { assets, versions } from "../../db/schema/index.ts";
import { sendEncoded, sendRevalidatable } from "../../lib/revalidate.ts";
import { verifyPath } from "../../lib/signed-url.ts";
import { contentSecret } from "./content.urls.ts";

export function snapshotCsp(frameAncestors: string, contentOrigin: string): string {
  return [
    "sandbox allow-scripts",
    "default-src 'none'",
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    "media-src 'self' data: blob:",
    "frame-src 'self' data: blob:",
    // Our overlay is the only script a snapshot may run.
    `script-src ${contentOrigin}/overlay.js`,
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join("; ");
}

export function buildContentServer(ctx: AppContext): FastifyInstance {
  const { config, storage } = ctx;
  const { db } = ctx.database;
  const appOrigin = new URL(config.appUrl).origin;
  const server = Fastify({ logger: { level: config.logLevel } });

  const notFound = (reply: FastifyReply) => reply.status(404).type("text/plain").send("Not found");
  const signed = (path: string, query: unknown) => {
    const { exp, sig } = (query ?? {}) as Record<string, unknown>;
    return verifyPath(contentSecret(config), path, exp, sig);
  };
  const loadVersion = async (id: string) => (await db.select().from(versions).where(eq(versions.id, id)))[0];
  const send = async (reply: FastifyReply, key: string | null, type: string, cache: string) => {
    const file = key ? await storage.get(key) : null;
    if (!file) return notFound(reply);
    return reply
      .header("content-type", type)
      .header("content-length", file.size)
      .header("cache-control", cache)
      .header("x-content-type-options", "nosniff")
      .header("cross-origin-resource-policy", "cross-origin")
      .send(file.stream);
  };

  // The overlay is injected when the snapshot is served, not when it is stored, so every version —
  // old ones too — runs the current overlay.
  const hasOverlay = existsSync(config.overlayScript);

  for (const [prefix, frameAncestors] of [
    ["v", appOrigin],
    ["pv", "*"],
  ] as const) {
    server.get<{ Params: { versionId: string } }>(
      `/${prefix}/:versionId/index.html`,
      async (request, reply) => {
        const { versionId } = request.params;
        if (!signed(`/${prefix}/${versionId}/index.html`, request.query))
          return reply.status(403).send("Link expired");
        const version = await loadVersion(versionId);
        const file = version?.snapshotKey ? await storage.get(version.snapshotKey) : null;
        if (!file) return notFound(reply);
        const html = await text(file.stream);
        reply
          .header("content-security-policy", snapshotCsp(frameAncestors, config.contentOrigin))
          .header("referrer-policy", "no-referrer")
          .header("x-content-type-options", "nosniff");
        // Kept by the browser and revalidated (ETag → 304 when the viewer opens it again), compressed
        // for a browser that accepts it: a snapshot is mostly text (its inlined styles and markup).
        return sendRevalidatable(
          request,
          reply,
          Buffer.from(withOverlay(html, appOrigin, hasOverlay)),
          "text/html; charset=utf-8",
        );
      },
    );
  }

  server.get("/overlay.js", async (_request, reply) => {
    if (!hasOverlay) return notFound(reply);
    return reply
      .header("content-type", "text/javascript; charset=utf-8")
      .header("cache-control", "no-cache")
      .header("x-content-type-options", "nosniff")
      .send(await readFile(config.overlayScript));
  });

  server.get<{ Params: { versionId: string } }>("/f/:versionId", async (request, reply) => {
    if (!signed(`/f/${request.params.versionId}`, request.query))
      return reply.status(403).send("Link expired");
    const version = await loadVersion(request.params.versionId);
    if (!version?.fileKey) return notFound(reply);
    const type = version.kind === "pdf" ? "application/pdf" : imageType(version.fileKey);
    reply
      .header("access-control-allow-origin", appOrigin)
      .header("content-security-policy", "sandbox; default-src 'none'");
    return send(reply, version.fileKey, type, "private, max-age=31536000");
  });

  server.get<{ Params: { versionId: string } }>("/s/:versionId", async (request, reply) => {
    if (!signed(`/s/${request.params.versionId}`, request.query))
      return reply.status(403).send("Link expired");
    const version = await loadVersion(request.params.versionId);
    reply.header("access-control-allow-origin", appOrigin);
    return send(reply, version?.screenshotKey ?? null, "image/png", "private, max-age=31536000");
  });

  server.get<{ Params: { file: string } }>("/a/:file", async (request, reply) => {
    const match = /^([0-9a-f]{64})\.[a-z0-9]{1,8}$/.exec(request.params.file);
    if (!match) return notFound(reply);
    const [asset] = await db.select().from(assets).where(eq(assets.sha256, match[1]!));
    if (!asset) return notFound(reply);
    // Fonts are fetched in CORS mode from the sandboxed (opaque-origin) snapshot.
    reply.header("access-control-allow-origin", "*");
    const key = `assets/${asset.sha256}.${asset.ext}`;
    if (isCompressible(asset.contentType) && asset.size <= MAX_COMPRESSED_ASSET) {
      // SVG, fonts that are not WOFF, icons: compressed for a browser that accepts it (once per asset, by content).
      const file = await storage.get(key);
      if (!file) return notFound(reply);
      reply
        .header("content-type", asset.contentType)
        .header("cache-control", "public, max-age=31536000, immutable")
        .header("x-content-type-options", "nosniff")
        .header("cross-origin-resource-policy", "cross-origin");
      return sendEncoded(request, reply, await bytes(file.stream));
    }
    return send(reply, key, asset.contentType, "public, max-age=31536000, immutable");
  });

  server.setNotFoundHandler((_request, reply) => notFound(reply));
  return server;
}

export function withOverlay(html: string, appOrigin: string, enabled: boolean): string {
  if (!enabled) return html;
  const tag = `<script src="/overlay.js" data-app-origin="${appOrigin.replace(/"/g, "&quot;")}" defer></script>`;
  const end = html.lastIndexOf("</body>");
  return end === -1 ? html + tag : html.slice(0, end) + tag + html.slice(end);
}

/**
 * Assets up to this size in a format that is not compressed already (SVG, text, TrueType/OpenType fonts,
 * icons, bitmaps) are sent compressed; the others (PNG, JPEG, WebP, WOFF2…) as they are.
 */
const MAX_COMPRESSED_ASSET = 8 * 1024 * 1024;
const isCompressible = (contentType: string) =>
  /^(text\/|image\/(svg\+xml|x-icon|vnd\.microsoft\.icon|bmp)|font\/(ttf|otf|sfnt)|application\/(json|javascript|xml|x-font-ttf|x-font-otf|font-sfnt))/.test(
    contentType,
  );

async function bytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

const text = async (stream: NodeJS.ReadableStream) => (await bytes(stream)).toString("utf8");

function imageType(key: string): string {
  const ext = key.split(".").pop();
  return (
    { jpg: "image/jpeg", png: "image/png", webp: "image/webp", gif: "image/gif" }[ext ?? ""] ??
    "application/octet-stream"
  );
}
