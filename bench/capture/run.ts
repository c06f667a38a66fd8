/**
 * Capture benchmark: `node --import tsx bench/capture/run.ts [--runs 3] [--keep]`
 * (BENCH_ONLY=cold: only the cold CLI against a bare browser process, printed).
 *
 * Serves bench/fixtures/capture from two local servers (two origins, for cross-origin frames) and,
 * per page: times a bare Chromium load + full-page screenshot against a full capture (medians of
 * interleaved runs, both browsers warm), records the snapshot's size, and renders the snapshot
 * offline (file://, network refused) at 1280 and 375 px to count the pixels identical to the live
 * screenshot (pixelmatch, threshold 0.1). Prints a table and rewrites the "Capture" section of
 * docs/PERFORMANCE.md. Not a test: nothing here fails on a slow machine.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  type CaptureResult,
  Capturer,
  CHROMIUM_ARGS,
  chromiumPath,
  writeSnapshotDir,
} from "@redline/capture";
import { comparePngs, renderOffline, startFixtureServer } from "@redline/capture/testing";
import { type Browser, chromium } from "playwright-core";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CORPUS = path.join(ROOT, "bench/fixtures/capture");
const DOC = path.join(ROOT, "docs/PERFORMANCE.md");
const PAGES = [
  "fonts",
  "lazy",
  "srcset",
  "cssinjs",
  "adopted",
  "shadow",
  "canvas",
  "iframes",
  "bootstrap",
  "landing",
  // The edges the capture issue named, written for the bench and never tuned on (the tests use others).
  "article",
  "media-sheets",
  "motion",
  "forms",
];
/** A page that never stops: a request held open, a long poll, a clock, a frame loop (no bare load). */
const NEVER_QUIET = "polling";
/** Pages whose cold CLI run is timed against a cold bare browser process. */
const CLI_PAGES = ["fonts", "landing", "article", "motion"];
const CLI_RUNS = 5;
const WIDTHS = [1280, 375] as const;
const STAGES = [
  "tabOpen",
  "tab",
  "load",
  "settle",
  "sweep",
  "fonts",
  "freeze",
  "serialize",
  "screenshot",
  "sanitize",
];

/** The second pass: every response of the fixture servers delayed by this much. */
const LATENCY_MS = 40;

interface LatencyRow {
  page: string;
  bareMs: number;
  captureMs: number;
  ratio: number;
}

interface Row {
  page: string;
  bareMs: number;
  captureMs: number;
  ratio: number;
  bytes: number;
  assets: number;
  identical: Record<number, number>;
  stages: Record<string, number>;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Before each timed run: the capturer has opened its next tab (it does so between jobs) and the
 * machine has gone quiet: a new renderer process keeps initialising for up to a second after its
 * page is ready, and the last context is still being torn down, so neither run pays for the other.
 */
async function calm(capturer: Capturer): Promise<void> {
  await capturer.idle();
  const started = performance.now();
  while (performance.now() - started < 3_000 && (await busyShare(100)) > 0.1) {}
}

/** The share of CPU time spent busy over the next `ms`, all cores. */
async function busyShare(ms: number): Promise<number> {
  const sample = () =>
    os.cpus().reduce(
      (sum, cpu) => {
        const { idle, ...rest } = cpu.times;
        return { idle: sum.idle + idle, busy: sum.busy + Object.values(rest).reduce((a, b) => a + b, 0) };
      },
      { idle: 0, busy: 0 },
    );
  const before = sample();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = sample();
  const busy = after.busy - before.busy;
  const total = busy + after.idle - before.idle;
  return total > 0 ? busy / total : 0;
}

async function bareLoad(browser: Browser, url: string, width: number): Promise<number> {
  const started = performance.now();
  const context = await browser.newContext({ viewport: { width, height: 800 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "load" });
    await page.screenshot({ fullPage: true, type: "png" });
    return performance.now() - started;
  } finally {
    await context.close();
  }
}

async function fidelity(
  capturer: Capturer,
  result: CaptureResult,
  width: number,
  dir: string,
): Promise<number> {
  await writeSnapshotDir(result, dir);
  const offline = await renderOffline(capturer.browser, dir, width);
  const comparison = comparePngs(result.screenshot, offline);
  await writeFile(path.join(dir, "offline.png"), offline);
  await writeFile(path.join(dir, "diff.png"), comparison.diff);
  return comparison.identical;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { runs: { type: "string", default: "3" }, keep: { type: "boolean" } },
  });
  const runs = Math.max(1, Number(values.runs));
  // BENCH_ONLY=cold: only the cold CLI runs (printed, the document is left alone).
  if (process.env.BENCH_ONLY === "cold") {
    const cold = await measureColdCli();
    const ratios = cold.map((row) => row.builtMs / row.bareMs);
    console.log(
      `median CLI ÷ bare ${median(ratios).toFixed(2)}×, via tsx ${median(cold.map((r) => r.sourceMs / r.bareMs)).toFixed(2)}×; load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
    return;
  }
  // BENCH_ONLY=edges: only the edge pages and the cold CLI (printed, the document is left alone).
  if (process.env.BENCH_ONLY === "edges") {
    console.log(JSON.stringify({ edges: await measureEdges(runs), cold: await measureColdCli() }, null, 1));
    return;
  }
  const other = await startFixtureServer({ root: CORPUS });
  const server = await startFixtureServer({ root: CORPUS, vars: () => ({ OTHER_ORIGIN: other.url }) });
  const bare = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const capturer = await Capturer.launch();
  const work = await mkdtemp(path.join(os.tmpdir(), "redline-bench-capture-"));
  const rows: Row[] = [];
  const latency: LatencyRow[] = [];
  try {
    const warmUp = `${server.url}/fonts.html`;
    await bareLoad(bare, warmUp, 1280);
    await capturer.capture({ url: warmUp, allowPrivateUrls: true });
    for (const name of PAGES) {
      const url = `${server.url}/${name}.html`;
      const bareTimes: number[] = [];
      const results: CaptureResult[] = [];
      for (let run = 0; run < runs; run++) {
        await calm(capturer);
        bareTimes.push(await bareLoad(bare, url, 1280));
        await calm(capturer);
        results.push(await capturer.capture({ url, width: 1280, allowPrivateUrls: true }));
      }
      const first = results[0]!;
      const identical: Record<number, number> = {};
      for (const width of WIDTHS) {
        const result =
          width === 1280 ? first : await capturer.capture({ url, width, allowPrivateUrls: true });
        identical[width] = await fidelity(capturer, result, width, path.join(work, `${name}-${width}`));
      }
      const captureMs = median(results.map((r) => r.timings.total ?? 0));
      const bareMs = median(bareTimes);
      const stages = Object.fromEntries(
        STAGES.map((s) => [s, median(results.map((r) => r.timings[s] ?? 0))]),
      );
      const row: Row = {
        page: name,
        bareMs,
        captureMs,
        ratio: captureMs / bareMs,
        bytes: first.bytes.html + first.bytes.assets,
        assets: first.assets.length,
        identical,
        stages,
      };
      rows.push(row);
      console.log(formatRow(row));
    }
    // Second pass, timing only: the same pages with a round trip added to every response.
    const slowOther = await startFixtureServer({ root: CORPUS, latencyMs: LATENCY_MS });
    const slow = await startFixtureServer({
      root: CORPUS,
      latencyMs: LATENCY_MS,
      vars: () => ({ OTHER_ORIGIN: slowOther.url }),
    });
    try {
      for (const name of PAGES) {
        const url = `${slow.url}/${name}.html`;
        const bareTimes: number[] = [];
        const captureTimes: number[] = [];
        for (let run = 0; run < runs; run++) {
          await calm(capturer);
          bareTimes.push(await bareLoad(bare, url, 1280));
          await calm(capturer);
          const result = await capturer.capture({ url, width: 1280, allowPrivateUrls: true });
          captureTimes.push(result.timings.total ?? 0);
        }
        const bareMs = median(bareTimes);
        const captureMs = median(captureTimes);
        latency.push({ page: name, bareMs, captureMs, ratio: captureMs / bareMs });
        console.log(
          `${name.padEnd(10)}  +${LATENCY_MS} ms  bare ${bareMs.toFixed(0)} ms  capture ${captureMs.toFixed(0)} ms`,
        );
      }
    } finally {
      await slow.close();
      await slowOther.close();
    }
  } finally {
    await capturer.close();
    await bare.close();
    await server.close();
    await other.close();
    if (values.keep) console.log(`snapshots, offline renders and diffs kept in ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
  const edges = await measureEdges(runs);
  const cold = await measureColdCli();
  const section = renderSection(rows, runs, latency, edges, cold);
  console.log(`\n${section}`);
  await writeSection(section);
}

interface Edges {
  /** Snapshot vs Chromium's own screenshot with animations disabled, per width. */
  motionReference: Record<number, number>;
  polling: { ms: number; busy: string[]; identical: number };
}

/**
 * The reference for frozen motion is not our capture: a plain tab, loaded and left a second, then
 * Playwright's screenshot with animations disabled (finite ones ended, infinite ones cancelled). And the
 * page that never stops, captured with the default budgets.
 */
async function measureEdges(runs: number): Promise<Edges> {
  const server = await startFixtureServer({ root: CORPUS });
  const capturer = await Capturer.launch();
  const plain = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const work = await mkdtemp(path.join(os.tmpdir(), "redline-bench-edges-"));
  try {
    const motionReference: Record<number, number> = {};
    for (const width of WIDTHS) {
      const url = `${server.url}/motion.html`;
      const result = await capturer.capture({ url, width, allowPrivateUrls: true });
      const dir = path.join(work, `motion-${width}`);
      await writeSnapshotDir(result, dir);
      const offline = await renderOffline(capturer.browser, dir, width);
      // A browser of its own: the capturer's resolves no host names (every byte comes through Node).
      const context = await plain.newContext({
        viewport: { width, height: 800 },
        deviceScaleFactor: 1,
      });
      try {
        const page = await context.newPage();
        await page.goto(url, { waitUntil: "load" });
        await page.waitForTimeout(1_000);
        const reference = await page.screenshot({ fullPage: true, animations: "disabled", caret: "hide" });
        motionReference[width] = comparePngs(reference, offline).identical;
      } finally {
        await context.close();
      }
    }
    const times: number[] = [];
    let last: CaptureResult | undefined;
    for (let run = 0; run < runs; run++) {
      last = await capturer.capture({ url: `${server.url}/${NEVER_QUIET}.html`, allowPrivateUrls: true });
      times.push(last.timings.total ?? 0);
    }
    const identical = await fidelity(capturer, last!, 1280, path.join(work, NEVER_QUIET));
    console.log(
      `motion vs animations-disabled: ${JSON.stringify(motionReference)}; polling ${median(times)} ms`,
    );
    return { motionReference, polling: { ms: median(times), busy: last!.settled.busy, identical } };
  } finally {
    await capturer.close();
    await plain.close();
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
}

interface ColdRow {
  page: string;
  bareMs: number;
  builtMs: number;
  sourceMs: number;
}

/** A whole process, timed from spawn to exit (asynchronously: this process serves the pages). */
async function timeProcess(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`${args.join(" ")} exited with ${code}: ${stderr}`);
  return performance.now() - started;
}

/**
 * Cold runs, whole processes, interleaved: the capture CLI as built JavaScript (what `npm run build`
 * produces), the same CLI compiled by tsx on the fly (how it used to start), and a bare browser process
 * (import playwright-core, launch Chromium, load the page, full-page screenshot, close).
 */
async function measureColdCli(): Promise<ColdRow[]> {
  const server = await startFixtureServer({ root: CORPUS });
  const out = await mkdtemp(path.join(os.tmpdir(), "redline-bench-cli-"));
  const bareScript = path.join(out, "bare.mjs");
  await writeFile(
    bareScript,
    `import { chromium } from ${JSON.stringify(import.meta.resolve("playwright-core"))};
const browser = await chromium.launch({ executablePath: ${JSON.stringify(chromiumPath())}, args: ${JSON.stringify(CHROMIUM_ARGS)} });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(process.argv[2], { waitUntil: "load" });
await page.screenshot({ fullPage: true, type: "png" });
await browser.close();
`,
  );
  const built = path.join(ROOT, "packages/capture/dist/cli.js");
  const source = path.join(ROOT, "packages/capture/src/cli.ts");
  const rows: ColdRow[] = [];
  try {
    for (const name of CLI_PAGES) {
      const url = `${server.url}/${name}.html`;
      const bare: number[] = [];
      const builtTimes: number[] = [];
      const sourceTimes: number[] = [];
      for (let run = 0; run < CLI_RUNS; run++) {
        await settleMachine();
        bare.push(await timeProcess([bareScript, url]));
        await settleMachine();
        builtTimes.push(await timeProcess([built, url, "--out", path.join(out, name)]));
        await settleMachine();
        sourceTimes.push(await timeProcess(["--import", "tsx", source, url, "--out", path.join(out, name)]));
      }
      const row = {
        page: name,
        bareMs: median(bare),
        builtMs: median(builtTimes),
        sourceMs: median(sourceTimes),
      };
      rows.push(row);
      console.log(
        `cold ${name.padEnd(10)} bare ${row.bareMs.toFixed(0)} ms  cli ${row.builtMs.toFixed(0)} ms (${(row.builtMs / row.bareMs).toFixed(2)}×)  via tsx ${row.sourceMs.toFixed(0)} ms`,
      );
    }
  } finally {
    await server.close();
    await rm(out, { recursive: true, force: true });
  }
  return rows;
}

async function settleMachine(): Promise<void> {
  const started = performance.now();
  while (performance.now() - started < 3_000 && (await busyShare(100)) > 0.1) {}
}

function formatRow(row: Row): string {
  const pct = (value: number) => `${(value * 100).toFixed(2)} %`;
  return [
    row.page.padEnd(10),
    `bare ${row.bareMs.toFixed(0).padStart(5)} ms`,
    `capture ${row.captureMs.toFixed(0).padStart(5)} ms`,
    `${row.ratio.toFixed(2)}×`,
    `${(row.bytes / 1024).toFixed(0).padStart(5)} kB`,
    `1280: ${pct(row.identical[1280]!)}`,
    `375: ${pct(row.identical[375]!)}`,
  ].join("  ");
}

/** The ratio had the job opened its own tab (`tabOpen`) instead of finding it opened between jobs. */
const withTab = (row: Row) =>
  (row.captureMs + (row.stages.tabOpen ?? 0) - (row.stages.tab ?? 0)) / row.bareMs;

function renderSection(
  rows: Row[],
  runs: number,
  latency: LatencyRow[],
  edges: Edges,
  cold: ColdRow[],
): string {
  const pct = (value: number) => `${(value * 100).toFixed(2)} %`;
  const lines = [
    "## Capture",
    "",
    `Measured by \`npm run bench:capture\` on ${new Date().toISOString().slice(0, 10)}; machine: ${os.cpus().length} cores ` +
      `(${os.cpus()[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ` +
      `Debian Chromium, load average ${os.loadavg()[0]?.toFixed(1)} at the end of the run.`,
    `Corpus: \`bench/fixtures/capture/\` (${rows.length} pages) served from 127.0.0.1 on two ports. "Bare" is a new context, ` +
      `\`goto\` until the load event and a full-page screenshot; "capture" is \`Capturer.capture\` end to end ` +
      `(SSRF-guarded routing, settle, sweep, fonts, screenshot, SingleFile, sanitize, assets). Times are medians of ${runs} ` +
      "interleaved runs at 1280 px. Identical pixels: live screenshot vs the snapshot opened from disk with the servers' " +
      "content unreachable (pixelmatch threshold 0.1; rows missing in either image count as different).",
    "",
    "| Page | Bare (ms) | Capture (ms) | Ratio | Ratio with tab opening | Snapshot (kB) | Assets | Identical 1280 | Identical 375 |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.page} | ${r.bareMs.toFixed(0)} | ${r.captureMs.toFixed(0)} | ${r.ratio.toFixed(2)}× | ${withTab(r).toFixed(2)}× | ` +
        `${(r.bytes / 1024).toFixed(0)} | ${r.assets} | ${pct(r.identical[1280]!)} | ${pct(r.identical[375]!)} |`,
    ),
  ];
  const fidelities = rows.flatMap((r) => WIDTHS.map((w) => r.identical[w]!));
  const ratios = rows.map((r) => r.ratio);
  const bytes = rows.map((r) => r.bytes);
  lines.push(
    `| **median** | ${median(rows.map((r) => r.bareMs)).toFixed(0)} | ${median(rows.map((r) => r.captureMs)).toFixed(0)} | ` +
      `${median(ratios).toFixed(2)}× | ${median(rows.map(withTab)).toFixed(2)}× | ${(median(bytes) / 1024).toFixed(0)} | | ${pct(median(fidelities))} (both widths) | |`,
    `| **worst** | | | ${Math.max(...ratios).toFixed(2)}× | ${Math.max(...rows.map(withTab)).toFixed(2)}× | ${(Math.max(...bytes) / 1024).toFixed(0)} | | ` +
      `${pct(Math.min(...fidelities))} (both widths) | |`,
    "",
    `Median time per stage (ms): ${STAGES.map((s) => `${s} ${median(rows.map((r) => r.stages[s] ?? 0)).toFixed(0)}`).join(", ")}.`,
    "",
    `Targets: median identical ≥ 99.5 % — ${median(fidelities) >= 0.995 ? "met" : "**not met**"}; ` +
      `worst ≥ 98 % — ${Math.min(...fidelities) >= 0.98 ? "met" : "**not met**"}; ` +
      `capture ≤ 1.3× bare — ${median(ratios) <= 1.3 ? "met" : "**not met**"} (median ${median(ratios).toFixed(2)}×).`,
    "",
    "Where the time goes: the capturer opens the context and page of the next job between jobs (`tabOpen`; a " +
      "new renderer process keeps initialising for up to a second after that, which is why each timed run starts " +
      'on a quiet machine), so a job starts loading at once (`tab`). "Ratio with tab opening" is the ratio had ' +
      "the job opened its tab itself, as when jobs queue back to back. Every request is fetched by Node through " +
      "the SSRF guard and handed to Chromium by route interception (part of `load`, with SingleFile's init " +
      "script); the job then waits until the page has settled (network quiet for 40 ms, two more rendered frames " +
      "that start nothing, and no timer due within a second: `settle`), sweeps for lazy content only a page that " +
      "reacts to scrolling (`sweep`), SingleFile serializes in the page (`serialize`), and the live screenshot " +
      "(straight from the DevTools protocol) and the sanitizing of the snapshot, in an isolated world of the same " +
      "page (ADR 0018), run side by side (`screenshot`, `sanitize`). The timings are noisy when other jobs share " +
      "the 2 cores.",
    "",
  );
  const coldRatios = cold.map((r) => r.builtMs / r.bareMs);
  lines.push(
    `The edges (article: lazy images by \`loading=lazy\`, a scroll listener and a lazy frame, 9,000 px; media-sheets: ` +
      "constructed sheets adopted with media conditions in the document and in shadow roots; motion: transitions, " +
      "stepped and repeated animations, WAAPI fill-forwards, a script reveal from `visibility: hidden`, an infinite " +
      "pulse; forms: values, dates, colours, radios, `:has()` styling, an open `<details>`, progress) are in the table " +
      "above. `motion` against Chromium's own screenshot with animations disabled (not our live screenshot): " +
      `${WIDTHS.map((w) => `${pct(edges.motionReference[w]!)} at ${w} px`).join(", ")}. ` +
      `\`${NEVER_QUIET}\` (a request held open, a long poll, a 200 ms clock, a frame loop; its load event never fires): ` +
      `captured in ${edges.polling.ms.toFixed(0)} ms (median), marked partial (${edges.polling.busy.join(", ")}), ` +
      `${pct(edges.polling.identical)} identical at 1280 px — it used to fail after 30 s.`,
    "",
    "### Cold CLI",
    "",
    `Whole processes, medians of ${CLI_RUNS} interleaved cold runs at 1280 px: "bare" imports playwright-core, launches ` +
      "Chromium, loads the page until its load event, takes a full-page screenshot and exits; `packages/capture/dist/cli.js` " +
      "is the capture CLI as `npm run build` builds it (SingleFile's in-page bundle prebuilt beside it); `via tsx` is the " +
      "same CLI compiled on the fly, as it started before.",
    "",
    "| Page | Bare process (ms) | CLI (ms) | CLI ÷ bare | CLI via tsx (ms) | via tsx ÷ bare |",
    "|---|---:|---:|---:|---:|---:|",
    ...cold.map(
      (r) =>
        `| ${r.page} | ${r.bareMs.toFixed(0)} | ${r.builtMs.toFixed(0)} | ${(r.builtMs / r.bareMs).toFixed(2)}× | ` +
        `${r.sourceMs.toFixed(0)} | ${(r.sourceMs / r.bareMs).toFixed(2)}× |`,
    ),
    `| **median** | | | ${median(coldRatios).toFixed(2)}× | | ${median(cold.map((r) => r.sourceMs / r.bareMs)).toFixed(2)}× |`,
    "",
    `Target: cold CLI ≤ 1.5× a cold bare browser process — ${median(coldRatios) <= 1.5 ? "met" : "**not met**"} ` +
      `(median ${median(coldRatios).toFixed(2)}×).`,
    "",
  );
  if (latency.length > 0)
    lines.push(
      `Not the target, for context: the same pages with ${LATENCY_MS} ms added to every response (a nearby CDN's ` +
        "round trip; there is no outside network here), timing only, " +
        `median bare ${median(latency.map((r) => r.bareMs)).toFixed(0)} ms, capture ` +
        `${median(latency.map((r) => r.captureMs)).toFixed(0)} ms, ratio ${median(latency.map((r) => r.ratio)).toFixed(2)}× ` +
        `(per page: ${latency.map((r) => `${r.page} ${r.ratio.toFixed(2)}×`).join(", ")}).`,
      "",
    );
  return lines.join("\n");
}

async function writeSection(section: string): Promise<void> {
  let doc =
    "# Performance\n\nMeasured numbers, one section per benchmark. Each section is rewritten by its benchmark.\n\n";
  try {
    doc = await readFile(DOC, "utf8");
  } catch {
    // first run: start the file
  }
  const start = doc.indexOf("## Capture");
  if (start === -1) doc = `${doc.trimEnd()}\n\n${section}`;
  else {
    const next = doc.indexOf("\n## ", start + 1);
    doc = doc.slice(0, start) + section + (next === -1 ? "" : `\n${doc.slice(next + 1)}`);
  }
  await writeFile(DOC, `${doc.trimEnd()}\n`);
  console.log(`updated ${path.relative(ROOT, DOC)}`);
}

await main();
