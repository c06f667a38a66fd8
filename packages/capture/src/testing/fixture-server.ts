/**
 * A fixture web server for the capture tests and the benchmark (node:http on 127.0.0.1, port 0).
 *
 *   /<file>                      a file under `root`
 *   /npm/<package>/<path>        a file from an allow-listed npm package (fonts, CSS frameworks)
 *   /img/<w>x<h>/<rrggbb>.png    a generated gradient PNG, so no binary fixtures live in git
 *   /redirect?to=<url>           302 to `to`
 *   /hang                        never answers (timeouts)
 *
 * In .html files, `%%NAME%%` is replaced by `vars[NAME]` (e.g. the origin of a second server).
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { PNG } from "pngjs";

const require = createRequire(import.meta.url);
const NPM_PACKAGES = ["@fontsource/roboto", "bootstrap"];

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".json": "application/json",
};

export interface FixtureServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export type ExtraRoute = (request: IncomingMessage, response: ServerResponse) => void;

export async function startFixtureServer(options: {
  root?: string;
  host?: string;
  port?: number;
  routes?: Record<string, ExtraRoute>;
  vars?: () => Record<string, string>;
  /** Added before every response, like a network round trip (the capture bench's second pass). */
  latencyMs?: number;
}): Promise<FixtureServer> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer((request, response) => {
    const respond = () =>
      handle(request, response, options).catch(() => {
        response.writeHead(500).end();
      });
    if (options.latencyMs) setTimeout(respond, options.latencyMs);
    else void respond();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  options: { root?: string; routes?: Record<string, ExtraRoute>; vars?: () => Record<string, string> },
): Promise<void> {
  const { root } = options;
  const url = new URL(request.url ?? "/", "http://fixture");
  const pathname = decodeURIComponent(url.pathname);
  const route = options.routes?.[pathname];
  if (route) return route(request, response);
  if (pathname === "/hang") return; // keeps the socket open until the server closes
  if (pathname === "/redirect") {
    response.writeHead(302, { location: url.searchParams.get("to") ?? "/" }).end();
    return;
  }
  const image = pathname.match(/^\/img\/(\d+)x(\d+)\/([0-9a-f]{6})\.png$/);
  if (image) return send(response, ".png", gradientPng(Number(image[1]), Number(image[2]), image[3]!));
  let file: string | undefined;
  if (pathname.startsWith("/npm/")) file = npmFile(pathname.slice(5));
  else if (root) file = path.join(root, pathname.endsWith("/") ? `${pathname}index.html` : pathname);
  if (!file || (root && !pathname.startsWith("/npm/") && !file.startsWith(root))) {
    response.writeHead(404).end();
    return;
  }
  try {
    let body = await readFile(file);
    const vars = options.vars?.();
    if (vars && file.endsWith(".html"))
      body = Buffer.from(
        body.toString("utf8").replace(/%%(\w+)%%/g, (match, name: string) => vars[name] ?? match),
      );
    send(response, path.extname(file), body);
  } catch {
    response.writeHead(404).end();
  }
}

function send(response: ServerResponse, ext: string, body: Buffer): void {
  response.writeHead(200, {
    "content-type": TYPES[ext] ?? "application/octet-stream",
    "content-length": body.length,
    "cache-control": "no-store",
  });
  response.end(body);
}

function npmFile(rest: string): string | undefined {
  const name = NPM_PACKAGES.find((pkg) => rest.startsWith(`${pkg}/`));
  if (!name) return undefined;
  const dir = path.dirname(require.resolve(`${name}/package.json`));
  const file = path.join(dir, rest.slice(name.length + 1));
  return file.startsWith(dir) ? file : undefined;
}

const pngCache = new Map<string, Buffer>();

/** A diagonal gradient from the colour to white with a darker border: scaling errors show. */
export function gradientPng(width: number, height: number, hex: string): Buffer {
  const key = `${width}x${height}/${hex}`;
  const cached = pngCache.get(key);
  if (cached) return cached;
  const png = new PNG({ width, height });
  const base = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const edge = x < 2 || y < 2 || x >= width - 2 || y >= height - 2;
      const offset = (y * width + x) * 4;
      for (let c = 0; c < 3; c++)
        png.data[offset + c] = edge ? base[c]! / 2 : Math.round(base[c]! + (255 - base[c]!) * t);
      png.data[offset + 3] = 255;
    }
  const bytes = PNG.sync.write(png);
  pngCache.set(key, bytes);
  return bytes;
}
