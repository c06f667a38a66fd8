/**
 * The widget (issue #15): what it weighs and what it costs the page that embeds it, and how true its
 * screenshot is. `npm run bench:widget` builds packages/widget, then in Debian's Chromium:
 *  - sizes: the stub and each lazy chunk gzip (with the shared chunks each one imports);
 *  - host-page cost: main-thread time (CDP TaskDuration / ScriptDuration) of a fixture page's load with
 *    and without the snippet, alternating, same run;
 *  - screenshot fidelity: the screenshot chunk (snapdom) against Chromium's own screenshot of the same
 *    viewport at 1280×800, four fixture pages (one with a web font and photos), pixels differing (pixelmatch) and capture time, each run
 *    on a freshly loaded page (a reporter takes one capture, cold).
 * Writes "## Widget (#15)" in docs/PERFORMANCE.md.
 */
import { execFileSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import pixelmatch from "pixelmatch";
import { type Browser, chromium } from "playwright-core";
import sharp from "sharp";
import { percentile, repoRoot, writeSection } from "../lib/report.ts";

const LOAD_RUNS = Number(process.env.BENCH_RUNS ?? 20);
const SHOT_RUNS = Number(process.env.BENCH_SHOT_RUNS ?? 5);
const WIDTH = 1280;
const HEIGHT = 800;
const GOALS = { stub: 15, screenshot: 90, replay: 25 } as const;
const PAGES = ["article", "dashboard", "landing", "shop"] as const;

const widgetDir = path.join(repoRoot, "packages/widget");
const dist = path.join(widgetDir, "dist");
const fixtures = path.join(import.meta.dirname, "fixtures");

execFileSync(process.execPath, ["build.mjs"], { cwd: widgetDir, stdio: "inherit" });
const files = await readdir(dist);
const chunkOf = (name: string) => files.find((file) => file.startsWith(`${name}-`))!;

/** gzip bytes of a chunk and every chunk it imports, each counted once. */
async function gzipWithImports(file: string, seen = new Set<string>()): Promise<number> {
  if (seen.has(file)) return 0;
  seen.add(file);
  const code = await readFile(path.join(dist, file), "utf8");
  let total = gzipSync(code).length;
  for (const [, imported] of code.matchAll(/(?:from|import)\s*"\.\/([\w-]+\.js)"/g))
    total += await gzipWithImports(imported!, seen);
  return total;
}
const kb = (bytes: number) => bytes / 1024;
const sizes = {
  stub: kb(gzipSync(await readFile(path.join(dist, "redline.js"))).length),
  reporter: kb(await gzipWithImports(chunkOf("reporter"))),
  screenshot: kb(await gzipWithImports(chunkOf("screenshot"))),
  replay: kb(await gzipWithImports(chunkOf("replay"))),
  record: kb(await gzipWithImports(chunkOf("record"))),
};

function listen(handler: http.RequestListener): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    ),
  );
}

// The widget on one origin (as the app serves it: CORS *), the fixture site on another.
const widget = await listen(async (request, response) => {
  if (request.url === "/empty.js")
    return response
      .writeHead(200, { "content-type": "text/javascript", "access-control-allow-origin": "*" })
      .end("");
  const file = /^\/widget\/v1\/([\w-]+\.js)$/.exec(request.url ?? "")?.[1];
  const code = file ? await readFile(path.join(dist, file)).catch(() => null) : null;
  if (!code) return response.writeHead(404).end();
  response
    .writeHead(200, { "content-type": "text/javascript", "access-control-allow-origin": "*" })
    .end(code);
});
const snippet = `<script src="${widget.url}/widget/v1/redline.js" data-key="bench-key-0001" async></script>`;
const emptyScript = `<script src="${widget.url}/empty.js" async></script>`;
const fonts = path.join(repoRoot, "node_modules/@fontsource/inter/files");
// Product photos: noise over a colour, so a resampled or recompressed image would show. Made once: the
// page and snapdom (which fetches each image again to inline it) must get the same bytes.
const photos = await Promise.all(
  [0, 1, 2, 3, 4].map((index) =>
    sharp({
      create: {
        width: 320,
        height: 180,
        channels: 3,
        background: ["#6b8f71", "#3d5a80", "#c9a227", "#8d5b4c"][index % 4]!,
        noise: { type: "gaussian", mean: 128, sigma: 30 },
      },
    })
      .png()
      .toBuffer(),
  ),
);
const site = await listen(async (request, response) => {
  const url = new URL(request.url ?? "/", "http://site");
  const font = /^\/fonts\/inter-(400|700)\.woff2$/.exec(url.pathname)?.[1];
  if (font)
    return response
      .writeHead(200, { "content-type": "font/woff2" })
      .end(await readFile(path.join(fonts, `inter-latin-${font}-normal.woff2`)));
  const image = /^\/img\/product-(\d)\.png$/.exec(url.pathname)?.[1];
  if (image) return response.writeHead(200, { "content-type": "image/png" }).end(photos[Number(image)]);
  const match = /^\/(\w+)(-widget|-empty)?\.html$/.exec(url.pathname);
  const html = match
    ? await readFile(path.join(fixtures, `${match[1]}.html`), "utf8").catch(() => null)
    : null;
  if (!html) return response.writeHead(404).end();
  const extra = match![2] === "-widget" ? snippet : match![2] === "-empty" ? emptyScript : "";
  response
    .writeHead(200, { "content-type": "text/html; charset=utf-8" })
    .end(html.replace("</head>", `${extra}</head>`));
});

const browser: Browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});

/** Main-thread seconds of one cold page load (fresh context: nothing cached), after the stub's idle work. */
async function loadCost(page: string): Promise<{ task: number; script: number }> {
  const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT } });
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send("Performance.enable");
  await tab.goto(`${site.url}/${page}`, { waitUntil: "load" });
  // The stub's one deferred step (the offline queue) runs 1 s after it starts.
  await tab.waitForTimeout(1300);
  const { metrics } = await cdp.send("Performance.getMetrics");
  const metric = (name: string) => metrics.find((entry) => entry.name === name)?.value ?? 0;
  const cost = { task: metric("TaskDuration") * 1000, script: metric("ScriptDuration") * 1000 };
  if (page.includes("-widget") && (await tab.locator("redline-widget").count()) !== 1)
    throw new Error("the widget did not start");
  await context.close();
  return cost;
}

interface Fidelity {
  page: string;
  differing: number[];
  strict: number[];
  ms: number[];
}

async function fidelity(name: string): Promise<Fidelity> {
  const result: Fidelity = { page: name, differing: [], strict: [], ms: [] };
  for (let run = 0; run < SHOT_RUNS; run++) {
    const context = await browser.newContext({
      viewport: { width: WIDTH, height: HEIGHT },
      deviceScaleFactor: 1,
    });
    const tab = await context.newPage();
    await tab.goto(`${site.url}/${name}.html`, { waitUntil: "load" });
    await tab.evaluate(() => document.fonts.ready);
    const chromiumShot = await tab.screenshot({ type: "png" });
    const chunk = `${widget.url}/widget/v1/${chunkOf("screenshot")}`;
    const captured = await tab.evaluate(async (url) => {
      const module = await import(url);
      const started = performance.now();
      const shot = await module.captureDom(document.createElement("div"));
      const ms = performance.now() - started;
      return { ms, png: (shot.canvas as HTMLCanvasElement).toDataURL("image/png") };
    }, chunk);
    await context.close();
    const raw = async (png: Buffer) =>
      (await sharp(png).resize(WIDTH, HEIGHT, { fit: "fill" }).ensureAlpha().raw().toBuffer()) as Buffer;
    const ours = await raw(Buffer.from(captured.png.split(",")[1]!, "base64"));
    const theirs = await raw(chromiumShot);
    const pixels = WIDTH * HEIGHT;
    result.differing.push(
      (pixelmatch(ours, theirs, undefined, WIDTH, HEIGHT, { threshold: 0.1 }) / pixels) * 100,
    );
    let strict = 0;
    for (let i = 0; i < ours.length; i += 4)
      if (
        Math.abs(ours[i]! - theirs[i]!) > 8 ||
        Math.abs(ours[i + 1]! - theirs[i + 1]!) > 8 ||
        Math.abs(ours[i + 2]! - theirs[i + 2]!) > 8
      )
        strict++;
    result.strict.push((strict / pixels) * 100);
    result.ms.push(captured.ms);
  }
  return result;
}

try {
  await loadCost("dashboard.html"); // warm-up: the browser's own first-run work
  const without: { task: number; script: number }[] = [];
  const withEmpty: { task: number; script: number }[] = [];
  const withWidget: { task: number; script: number }[] = [];
  for (let run = 0; run < LOAD_RUNS; run++) {
    without.push(await loadCost("dashboard.html"));
    withEmpty.push(await loadCost("dashboard-empty.html"));
    withWidget.push(await loadCost("dashboard-widget.html"));
  }
  const median = (values: number[]) => percentile(values, 50);
  const load = {
    taskWithout: median(without.map((cost) => cost.task)),
    taskEmpty: median(withEmpty.map((cost) => cost.task)),
    taskWith: median(withWidget.map((cost) => cost.task)),
    scriptWithout: median(without.map((cost) => cost.script)),
    scriptEmpty: median(withEmpty.map((cost) => cost.script)),
    scriptWith: median(withWidget.map((cost) => cost.script)),
  };

  const shots: Fidelity[] = [];
  for (const name of PAGES) shots.push(await fidelity(name));

  const met = (ok: boolean) => (ok ? "met" : "**not met**");
  const sizeRow = (label: string, value: number, goal?: number) =>
    `| ${label} | ${value.toFixed(1)} | ${goal ? `≤ ${goal} — ${met(value <= goal)}` : "—"} |`;
  const shotRow = (shot: Fidelity) =>
    `| ${shot.page} | ${median(shot.differing).toFixed(2)} (max ${Math.max(...shot.differing).toFixed(2)}) | ${median(shot.strict).toFixed(2)} | ${median(shot.ms).toFixed(0)} (max ${Math.max(...shot.ms).toFixed(0)}) |`;
  const worstDiff = Math.max(...shots.flatMap((shot) => shot.differing));
  const worstMs = Math.max(...shots.flatMap((shot) => shot.ms));
  const body = `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:widget\` on this project's 2-core machine (load average ${os.loadavg()[0]!.toFixed(1)} when it finished), Debian's Chromium through playwright-core, the widget built by \`packages/widget/build.mjs\` and served from a second origin.

Sizes (KB gzip; a lazy chunk counted with the shared chunks it imports):

| File | KB gzip | Goal |
|---|---|---|
${sizeRow("stub `redline.js` (loaded by every page)", sizes.stub, GOALS.stub)}
${sizeRow("reporter UI (first click)", sizes.reporter)}
${sizeRow("screenshot, snapdom (first click)", sizes.screenshot, GOALS.screenshot)}
${sizeRow("replay, rrweb record (page load, only with `data-replay`)", sizes.replay, GOALS.replay)}
${sizeRow("screen recorder (only when the reporter presses Record screen)", sizes.record)}

The stub's cost on the host page (\`bench/widget/fixtures/dashboard.html\`, ${WIDTH}×${HEIGHT}, cold load in a fresh context, main-thread time until 1.3 s after \`load\` from CDP \`Performance.getMetrics\`, median of ${LOAD_RUNS} loads each, alternating):

| | without the widget | with an empty async script (control) | with the widget | added by the widget |
|---|---|---|---|---|
| all main-thread tasks (ms) | ${load.taskWithout.toFixed(1)} | ${load.taskEmpty.toFixed(1)} | ${load.taskWith.toFixed(1)} | ${(load.taskWith - load.taskWithout).toFixed(1)} (× ${(load.taskWith / load.taskWithout).toFixed(2)}) |
| script (ms) | ${load.scriptWithout.toFixed(1)} | ${load.scriptEmpty.toFixed(1)} | ${load.scriptWith.toFixed(1)} | ${(load.scriptWith - load.scriptWithout).toFixed(1)} |

The control row is any third-party \`<script async>\` from another origin that does nothing: the difference between it and the widget is the stub's own work (ring buffers, one shadow root with the launcher, one read of the offline queue in localStorage 1 s after start). On a loaded machine these medians move by tens of milliseconds from run to run.

Screenshot fidelity at ${WIDTH}×${HEIGHT} (DPR 1): the screenshot chunk's capture (snapdom \`toCanvas\` of the viewport, with the widget's masking plugin) against Chromium's own screenshot of the same page, ${SHOT_RUNS} runs per page, each on a freshly loaded page. "Differing" is pixelmatch (threshold 0.1, anti-aliased pixels not counted); "strict" counts every pixel with a channel more than 8/255 apart. Time is the capture alone, in the page (\`performance.now()\`), chunk already loaded.

| Page | % pixels differing, median | % strict | capture ms, median |
|---|---|---|---|
${shots.map(shotRow).join("\n")}

Goals (issue #15): stub ≤ ${GOALS.stub} KB — ${met(sizes.stub <= GOALS.stub)}; screenshot chunk ≤ ${GOALS.screenshot} KB — ${met(sizes.screenshot <= GOALS.screenshot)}; replay chunk ≤ ${GOALS.replay} KB — ${met(sizes.replay <= GOALS.replay)}; ≤ 1 % of pixels differing — ${met(worstDiff <= 1)} (worst run ${worstDiff.toFixed(2)} %); ≤ 1.5 s per capture — ${met(worstMs <= 1500)} (worst run ${worstMs.toFixed(0)} ms).`;
  console.log(body);
  await writeSection("Widget (#15)", body);
} finally {
  await browser.close();
  widget.server.close();
  site.server.close();
}
