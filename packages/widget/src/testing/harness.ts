/**
 * Browser harness for the widget: a "site" and an "app" on two loopback ports (two origins), Debian's
 * Chromium through playwright-core. The app serves the built widget as the real server does (CORS `*`)
 * and records every report posted to its intake, parsed from the multipart body the widget sent.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import { ensureWidgetBuilt } from "./bundle.ts";

export const CHROMIUM_ARGS = ["--no-sandbox", "--no-first-run", "--disable-background-networking"];

export interface ReceivedReport {
  report: any;
  screenshot: Buffer | null;
  replay: string | null;
}

export interface WidgetHarness {
  siteOrigin: string;
  appOrigin: string;
  browser: Browser;
  /** Paths of the widget files the app served, in order. */
  served: string[];
  received: ReceivedReport[];
  /** How the intake answers next (default 201). */
  answer: { status: number };
  /** Registers a page of the site at `/${name}`. */
  page(name: string, html: string): string;
  close(): Promise<void>;
}

async function body(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );

export async function startWidgetHarness(): Promise<WidgetHarness> {
  const dist = ensureWidgetBuilt();
  const pages = new Map<string, string>();
  const served: string[] = [];
  const received: ReceivedReport[] = [];
  const answer = { status: 201 };
  let siteOrigin = "";

  const site = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://site");
    if (url.pathname === "/api/missing") return response.writeHead(404).end("missing");
    if (url.pathname === "/api/broken") return response.writeHead(500).end("broken");
    const html = pages.get(url.pathname.slice(1));
    if (!html) return response.writeHead(404).end();
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
  const app = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://app");
    if (url.pathname === "/api/widget/reports" && request.method === "POST") {
      const form = await new Request("http://app/", {
        method: "POST",
        headers: { "content-type": request.headers["content-type"] ?? "" },
        body: new Uint8Array(await body(request)),
      }).formData();
      const screenshot = form.get("screenshot") as Blob | null;
      const replay = form.get("replay") as Blob | null;
      received.push({
        report: JSON.parse(String(form.get("report"))),
        screenshot: screenshot ? Buffer.from(await screenshot.arrayBuffer()) : null,
        replay: replay ? await replay.text() : null,
      });
      response
        .writeHead(answer.status, {
          "content-type": "application/json",
          "access-control-allow-origin": siteOrigin,
        })
        .end(JSON.stringify({ data: { id: "t1", number: received.length } }));
      return;
    }
    const file = /^\/widget\/v1\/([A-Za-z0-9_-]+\.js)$/.exec(url.pathname)?.[1];
    const code = file ? await readFile(path.join(dist, file)).catch(() => null) : null;
    if (!code) return response.writeHead(404).end();
    served.push(file!);
    response
      .writeHead(200, { "content-type": "text/javascript", "access-control-allow-origin": "*" })
      .end(code);
  });
  const [sitePort, appPort] = await Promise.all([listen(site), listen(app)]);
  siteOrigin = `http://127.0.0.1:${sitePort}`;
  // Another host name for the app: a real second origin, as on a customer's site.
  const appOrigin = `http://localhost:${appPort}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  return {
    siteOrigin,
    appOrigin,
    browser,
    served,
    received,
    answer,
    page(name, html) {
      pages.set(name, html);
      return `${siteOrigin}/${name}`;
    },
    async close() {
      await browser.close();
      await Promise.all([site, app].map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}
