/**
 * Where a load of the review page spends the main thread (`BENCH_PROFILE=1 npm run bench:review`): a
 * V8 CPU profile of one load, self time summed per function and mapped to the app's sources through the
 * build's source maps, and the same load's Chromium trace summed per kind of work (script, style, layout,
 * paint, parsing).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { SourceMapConsumer } from "source-map-js";
import { repoRoot } from "../lib/report.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}
interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  args?: { data?: { frame?: string } };
}

/** Trace events counted as a kind of work (their wall time, nested ones excluded by taking the outer). */
const KINDS: Record<string, string> = {
  FunctionCall: "script",
  EvaluateScript: "script",
  TimerFire: "script",
  FireAnimationFrame: "script",
  EventDispatch: "script",
  "v8.compile": "compile",
  "v8.compileModule": "compile",
  UpdateLayoutTree: "style",
  Layout: "layout",
  PrePaint: "paint",
  Paint: "paint",
  Layerize: "paint",
  ParseHTML: "parse HTML",
  ParseAuthorStyleSheet: "parse CSS",
};

export async function profileLoad(page: Page, url: string): Promise<string> {
  const session = await page.context().newCDPSession(page);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 200 });
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ["devtools.timeline", "v8"] });
  await session.send("Profiler.start");
  await page.goto(url);
  await page.locator(".comment-list .comment-card").first().waitFor({ timeout: 120_000 });
  await page.locator(".position-layer .comment-pin").first().waitFor({ timeout: 120_000 });
  await page.waitForTimeout(500);
  const { profile } = (await session.send("Profiler.stop")) as { profile: Profile };
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] };

  const kinds = new Map<string, number>();
  for (const event of trace.traceEvents) {
    const kind = KINDS[event.name];
    if (kind && event.ph === "X" && event.dur) kinds.set(kind, (kinds.get(kind) ?? 0) + event.dur / 1000);
  }

  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  const maps = new Map<string, SourceMapConsumer | null>();
  const where = async (frame: ProfileNode["callFrame"]): Promise<string> => {
    const file = frame.url.match(/\/assets\/[^?#]+\.js$/)?.[0];
    if (!file || frame.lineNumber < 0)
      return `${frame.functionName || "(anonymous)"} ${frame.url ? path.basename(frame.url) : ""}`;
    if (!maps.has(file)) {
      const raw = await readFile(path.join(repoRoot, "apps/web/dist", `${file}.map`), "utf8").catch(
        () => null,
      );
      maps.set(file, raw ? new SourceMapConsumer(JSON.parse(raw)) : null);
    }
    const original = maps.get(file)?.originalPositionFor({
      line: frame.lineNumber + 1,
      column: frame.columnNumber,
    });
    if (!original?.source) return `${frame.functionName || "(anonymous)"} ${path.basename(file)}`;
    const source = original.source.replace(/^.*node_modules\//, "").replace(/^(\.\.\/)+/, "");
    return `${original.name ?? frame.functionName ?? "(anonymous)"} ${source}:${original.line}`;
  };
  const byFunction = new Map<string, number>();
  for (const [id, ms] of self) {
    const node = nodes.get(id);
    if (!node) continue;
    const key = await where(node.callFrame);
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
  }
  const top = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25);
  return [
    "Trace, by kind of work (ms):",
    ...[...kinds].sort((a, b) => b[1] - a[1]).map(([kind, ms]) => `  ${kind}: ${Math.round(ms)}`),
    "CPU profile, self time by function (ms):",
    ...top.map(([key, ms]) => `  ${Math.round(ms).toString().padStart(6)}  ${key}`),
  ].join("\n");
}
