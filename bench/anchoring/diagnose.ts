/**
 * Quick look at anchoring failures: `node --import tsx bench/anchoring/diagnose.ts [--doc tuning2,mutated]
 * [--page dashboard] [--width 1280] [--trace dashboard.tuning2:t41,t42]`. Prints every target that is not
 * anchored correctly with its stored fingerprint, and a tally per document; with --trace, the best
 * candidates of the named targets with every weighted comparison (explain() in anchor.ts). A development aid beside run.ts (which measures and writes
 * docs/PERFORMANCE.md); it defaults to the tuning documents only.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  anchorTruth,
  closePage,
  describeTruth,
  launchChromium,
  openPage,
  verdict,
} from "@redline/anchoring/testing";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PAIRS = path.join(ROOT, "bench/fixtures/anchoring/pairs");
const { values: args } = parseArgs({
  options: {
    doc: { type: "string", default: "mutated,tuning2" },
    page: { type: "string" },
    width: { type: "string", default: "1280" },
    quiet: { type: "boolean", default: false },
    trace: { type: "string" },
  },
});

if (args.trace) {
  const [where, ids] = args.trace.split(":");
  const [name, doc] = where!.split(".");
  const bundle = await build({
    entryPoints: [path.join(ROOT, "packages/anchoring/src/anchor.ts")],
    bundle: true,
    format: "iife",
    globalName: "RedlineDebug",
    write: false,
    logLevel: "warning",
  });
  const browser = await launchChromium();
  try {
    const source = await openPage(
      browser,
      await readFile(path.join(PAIRS, `${name}.original.html`), "utf8"),
      1280,
    );
    const anchors = await describeTruth(source);
    await closePage(source);
    const page = await openPage(
      browser,
      await readFile(path.join(PAIRS, `${name}.${doc}.html`), "utf8"),
      Number(args.width),
    );
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    for (const id of ids!.split(",")) {
      const stored = anchors[id]!;
      const lines = await page.evaluate(
        ({ stored, id }) => {
          const truthOf = (element: Element) => element.getAttribute("data-truth") ?? "?";
          // biome-ignore lint/suspicious/noExplicitAny: development aid
          const debug = (window as any).RedlineDebug;
          const result = debug.anchor(document, stored);
          const out = [
            `${id} → ${result ? `${result.status} ${truthOf(result.element)} ${result.score}` : "null"}`,
          ];
          for (const entry of debug.explain(document, stored, 5)) {
            out.push(
              `  ${truthOf(entry.element)} <${entry.element.localName}> score=${entry.score} text=${entry.textSim} nb=${entry.neighbourSim} names=${entry.namesIt}\n    ${entry.parts}\n    nb="${entry.neighbourText.slice(0, 100)}" anc=${entry.ancestors.join("<")}`,
            );
          }
          return out;
        },
        { stored, id },
      );
      const f = stored.fingerprint;
      console.log(
        `stored <${f.tag}> "${f.text.slice(0, 60)}" aria=${f.ariaLabel} icon=${f.icon ?? ""} attrs=${JSON.stringify(f.attributes)} classes=${f.classes.join(".")}\n  nb="${f.neighbourText}" anc=${f.ancestors.join("<")} index=${f.index} sel=${stored.querySelector} | ${stored.selectors.css} | ${stored.selectors.idPath}`,
      );
      console.log(lines.join("\n"));
    }
    await closePage(page);
  } finally {
    await browser.close();
  }
  process.exit(0);
}
const docs = args.doc.split(",");
const width = Number(args.width);
const browser = await launchChromium();
const totals: Record<
  string,
  { targets: number; correct: number; wrong: number; unanchored: number; pinned: number }
> = {};
try {
  const names = (await readdir(PAIRS))
    .filter((file) => file.endsWith(".original.html"))
    .map((file) => file.replace(/\.original\.html$/, ""))
    .filter((name) => !args.page || args.page.split(",").includes(name))
    .sort();
  for (const name of names) {
    const source = await openPage(
      browser,
      await readFile(path.join(PAIRS, `${name}.original.html`), "utf8"),
      1280,
    );
    const anchors = await describeTruth(source);
    await closePage(source);
    for (const doc of docs) {
      const page = await openPage(
        browser,
        await readFile(path.join(PAIRS, `${name}.${doc}.html`), "utf8"),
        width,
      );
      const { outcomes, present } = await anchorTruth(page, anchors);
      await closePage(page);
      const exists = new Set(present);
      totals[doc] ??= { targets: 0, correct: 0, wrong: 0, unanchored: 0, pinned: 0 };
      const total = totals[doc];
      for (const [truth, outcome] of Object.entries(outcomes)) {
        const kind = verdict(truth, outcome, exists.has(truth));
        total.targets++;
        total[kind]++;
        if (!exists.has(truth) && kind === "wrong") total.pinned++;
        if (kind === "correct" || args.quiet) continue;
        const f = anchors[truth]!.fingerprint;
        console.log(
          `${kind.toUpperCase()} ${name}.${doc} ${truth}${exists.has(truth) ? "" : " (removed)"} <${f.tag}> "${f.text.slice(0, 40)}" aria=${f.ariaLabel ?? ""} icon=${f.icon ? "y" : "n"} → ${outcome.status} ${outcome.found} (${outcome.score}) [${outcome.candidates.join(", ")}]\n    nb="${f.neighbourText.slice(0, 90)}" anc=${f.ancestors.slice(0, 3).join("<")}`,
        );
      }
    }
  }
  for (const [doc, t] of Object.entries(totals)) {
    const pct = (n: number) => ((100 * n) / t.targets).toFixed(1);
    console.log(
      `${doc}: ${t.targets} targets, correct ${pct(t.correct)} %, wrong ${pct(t.wrong)} %, unanchored ${pct(t.unanchored)} %, removed pinned ${t.pinned}`,
    );
  }
} finally {
  await browser.close();
}
