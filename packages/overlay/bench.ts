/**
 * Overlay benchmark: `node --import tsx packages/overlay/bench.ts [--no-write]`.
 *
 * In Debian's Chromium, through the test harness (app and content origins on loopback, the snapshot in
 * a sandboxed iframe with the content server's CSP): the bundle's size; start-up (overlay:ready after
 * the document became interactive); `pins:set` for 10, 50 and 200 pins on a page of about 3 000
 * elements, cold (every anchor found with anchor()) and re-sent unchanged; the cost of one frame
 * update while the page scrolls under 200 pins, and after the frame becomes 375 px wide. Timings come
 * from the overlay's own `__redlineOverlay.stats()`. Prints the section and rewrites the "Overlay"
 * section of docs/PERFORMANCE.md. Not a test: nothing here fails on a slow machine.
 */
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { overlayBundle } from "./src/testing/bundle.ts";
import { PRICING_PAGE } from "./src/testing/fixtures.ts";
import { type Message, startHarness, type View } from "./src/testing/harness.ts";

const DOC = path.resolve(import.meta.dirname, "../../docs/PERFORMANCE.md");
const PIN_COUNTS = [10, 50, 200] as const;
const RUNS = 5;

/** About 3 000 elements: 250 cards of a product listing. */
function listingPage(): string {
  const cards = Array.from(
    { length: 250 },
    (_, i) => `<article class="card c-${i % 7}" data-sku="sku-${i}">
      <h3>Product ${i}</h3><p>Short description of product ${i}, with <em>details</em> and a <strong>price</strong>.</p>
      <ul><li>Colour ${i % 5}</li><li>Size ${i % 3}</li></ul>
      <a href="/p/${i}" class="more">View product ${i}</a> <button type="button">Add ${i}</button>
    </article>`,
  ).join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Listing</title><style>
    body { margin: 0; font: 15px/1.5 sans-serif; }
    main { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 16px; padding: 16px; }
    .card { border: 1px solid #ddd; padding: 12px; }
  </style></head><body><main>${cards}</main></body></html>`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
const stats = (view: View) => view.frame.evaluate(() => window.__redlineOverlay!.stats());

async function pickTargets(view: View, count: number): Promise<Message[]> {
  await view.send("overlay:mode", { mode: "comment" });
  const picks: Message[] = [];
  const total = await view.frame.evaluate(() => document.querySelectorAll("main *").length);
  for (let i = 0; i < count; i++) {
    const index = Math.floor((i * total) / count);
    const box = await view.frame.evaluate((n) => {
      const element = document.querySelectorAll("main *")[n]!;
      element.scrollIntoView({ block: "center" });
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x: x + width / 2, y: y + height / 2 };
    }, index);
    const since = await view.mark();
    const point = await view.toPage(box);
    await view.page.mouse.click(point.x, point.y);
    picks.push(await view.waitFor("pick:element", since));
  }
  await view.send("overlay:mode", { mode: "browse" });
  await view.frame.evaluate(() => window.scrollTo(0, 0));
  return picks;
}

const pinsOf = (picks: Message[]) =>
  picks.map((pick, i) => ({
    id: `pin-${i}`,
    number: i + 1,
    anchor: pick.payload.anchor,
    dotPosition: pick.payload.dotPosition,
    isResolved: i % 4 === 0,
    isSelected: false,
  }));

async function main(): Promise<void> {
  const write = !process.argv.includes("--no-write");
  const code = Buffer.from(overlayBundle());
  const harness = await startHarness({ pricing: PRICING_PAGE, listing: listingPage() });
  try {
    // Start-up.
    const startup: number[] = [];
    const ownStartup: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const view = await harness.open("pricing");
      await view.waitFor("overlay:ready");
      const { startedAt, readyAt } = await stats(view);
      ownStartup.push(readyAt - startedAt);
      const interactive = await view.frame.evaluate(
        () => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).domInteractive,
      );
      startup.push(readyAt - interactive);
      await view.page.context().close();
    }

    // Pins on the listing page.
    const view = await harness.open("listing", { width: 1280, height: 800 });
    await view.waitFor("overlay:ready");
    const elements = await view.frame.evaluate(() => document.getElementsByTagName("*").length);
    const picks = await pickTargets(view, Math.max(...PIN_COUNTS));
    const rows: string[] = [];
    for (const count of PIN_COUNTS) {
      const cold: number[] = [];
      const slices: number[] = [];
      const warm: number[] = [];
      let statuses = "";
      for (let run = 0; run < RUNS; run++) {
        let since = await view.mark();
        await view.send("pins:set", { pins: [] }); // empties the cache: the next set anchors afresh
        await view.waitFor("pins:anchored", since);
        since = await view.mark();
        await view.send("pins:set", { pins: pinsOf(picks.slice(0, count)) });
        const anchored = await view.waitFor("pins:anchored", since);
        const coldStats = await stats(view);
        cold.push(coldStats.pinsSetMs);
        slices.push(coldStats.pinsSetLongestSliceMs);
        since = await view.mark();
        await view.send("pins:set", { pins: pinsOf(picks.slice(0, count)) });
        await view.waitFor("pins:anchored", since);
        warm.push((await stats(view)).pinsSetMs);
        const results: { status: string }[] = anchored.payload.results;
        statuses = ["exact", "fuzzy", "needs-review", "orphaned"]
          .map((status) => results.filter((result) => result.status === status).length)
          .join(" / ");
      }
      rows.push(
        `| ${count} | ${ms(median(cold))} | ${ms(median(slices))} | ${ms(median(warm))} | ${statuses} |`,
      );
    }

    // Frame updates while scrolling under the most pins, then after a device-width change.
    await view.settle();
    const before = await stats(view);
    await view.frame.evaluate(async () => {
      for (let step = 0; step < 120; step++) {
        window.scrollBy(0, 40);
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
    });
    await view.settle();
    const after = await stats(view);
    const scrollMean = (after.updateMs - before.updateMs) / Math.max(1, after.updates - before.updates);
    const resize: number[] = [];
    for (const width of [375, 1280, 375, 1280, 375]) {
      const start = await stats(view);
      await view.page.evaluate((w) => {
        document.getElementById("snapshot")!.style.width = `${w}px`;
      }, width);
      await view.waitFor("document:size", await view.mark());
      await view.settle();
      const end = await stats(view);
      resize.push((end.updateMs - start.updateMs) / Math.max(1, end.updates - start.updates));
    }

    const section = [
      `Measured by \`node --import tsx packages/overlay/bench.ts\` on ${new Date().toISOString().slice(0, 10)}; machine: ` +
        `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? "unknown CPU"}), Node ${process.version}, ` +
        `Debian Chromium, load average ${os.loadavg()[0]?.toFixed(1)} at the end of the run. Times are medians of ${RUNS} runs ` +
        "read from the overlay's own `__redlineOverlay.stats()`.",
      "",
      `Bundle \`dist/overlay.js\` (overlay + @redline/anchoring + frame protocol on zod/mini): ` +
        `${(code.length / 1024).toFixed(1)} KB raw, **${(gzipSync(code).length / 1024).toFixed(1)} KB gzip** ` +
        "(budget 30 KB gzip, asserted by `src/build.test.ts`).",
      "",
      `Start-up (pricing fixture): overlay:ready ${ms(median(startup))} ms after the document became interactive, ` +
        `of which ${ms(median(ownStartup))} ms in startOverlay() (host, observers, first document measurement); the rest ` +
        "is fetching, compiling and evaluating the bundle.",
      "",
      "Anchoring runs in slices of about 10 ms (one `anchor()` call can overrun a slice), so many pins never " +
        "freeze the page, and on localhost, where app and snapshot share a renderer process, the app.",
      "",
      `\`pins:set\` on a listing page of ${elements} elements — 250 near-identical product cards, a hard case for ` +
        "anchoring — with targets picked by clicks at 1280 px and anchored in the same document:",
      "",
      "| Pins | Cold: until pins:anchored (ms) | Longest slice (ms) | Re-sent unchanged (ms) | exact / fuzzy / needs-review / orphaned |",
      "|---:|---:|---:|---:|---:|",
      ...rows,
      "",
      `One frame update (move ${Math.max(...PIN_COUNTS)} pins + outline, no forced layout beyond reading boxes): ` +
        `${ms(scrollMean)} ms mean while scrolling (${after.updates - before.updates} frames; the longest update of ` +
        `the whole run, pins being drawn for the first time included, took ${ms(after.maxUpdateMs)} ms); after a 1280 ⇄ 375 px width change, including measuring the ` +
        `document: ${ms(median(resize))} ms.`,
      "",
      "Pins are positioned in the document (absolutely, under the one host element), so plain page scrolling " +
        "moves them with the compositor; the per-frame update only matters for inner scrollers, sticky " +
        "elements and layout changes. Anchoring accuracy is in the Anchoring section.",
    ].join("\n");
    console.log(`## Overlay\n\n${section}`);
    if (write) await writeSection("Overlay", section);
  } finally {
    await harness.close();
  }
}

/** Replaces (or appends) our `## Overlay` section, reading the file right before writing it. */
async function writeSection(title: string, body: string): Promise<void> {
  const current = await readFile(DOC, "utf8").catch(() => "# Performance\n");
  const heading = `## ${title}\n`;
  const section = `## ${title}\n\n${body.trim()}\n`;
  const start = current.indexOf(heading);
  if (start === -1) return writeFile(DOC, `${current.trimEnd()}\n\n${section}`);
  const next = current.indexOf("\n## ", start + heading.length);
  const rest = next === -1 ? "" : `\n${current.slice(next + 1)}`;
  await writeFile(DOC, `${current.slice(0, start)}${section}${rest}`);
}

await main();
