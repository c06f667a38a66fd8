/**
 * Test and benchmark helpers (`@redline/anchoring/testing`): Debian's Chromium through
 * playwright-core, the browser build injected into a page, and ground-truth bookkeeping — targets
 * carry a truth attribute that is read and then removed before the anchoring code runs, so it can
 * never use it.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import type * as Anchoring from "../index.ts";
import type { Anchor, AnchorStatus } from "../types.ts";

declare global {
  interface Window {
    RedlineAnchoring: typeof Anchoring;
  }
}

const PACKAGE = path.resolve(import.meta.dirname, "../..");
const BUNDLE = path.join(PACKAGE, "dist/anchoring.js");

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

let bundleText: string | null = null;

/** dist/anchoring.js, (re)built first when missing or older than a source file. */
export function browserBundle(): string {
  if (bundleText) return bundleText;
  let builtAt = 0;
  try {
    builtAt = statSync(BUNDLE).mtimeMs;
  } catch {}
  if (builtAt < newestSource(path.join(PACKAGE, "src"))) {
    execFileSync(process.execPath, [path.join(PACKAGE, "build.mjs")], { cwd: PACKAGE, stdio: "pipe" });
  }
  bundleText = readFileSync(BUNDLE, "utf8");
  return bundleText;
}

/** Loads the ESM bundle as a module and exposes it as window.RedlineAnchoring. */
export async function injectAnchoring(page: Page): Promise<void> {
  // tsx (esbuild keepNames) wraps named functions in __name(); functions sent to page.evaluate from
  // a tsx-run script would otherwise fail in the page.
  await page.evaluate("globalThis.__name ??= (fn) => fn");
  // A string, not a function: Vitest rewrites import() inside functions for its own module runner.
  await page.evaluate(`(async () => {
    const url = URL.createObjectURL(new Blob([${JSON.stringify(browserBundle())}], { type: "text/javascript" }));
    window.RedlineAnchoring = await import(url);
    URL.revokeObjectURL(url);
  })()`);
}

/** A fresh context at `width` × 800 with `html` loaded and the bundle injected. */
export async function openPage(browser: Browser, html: string, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.setContent(html, { waitUntil: "load" });
  await injectAnchoring(page);
  return page;
}

export async function closePage(page: Page): Promise<void> {
  await page.context().close();
}

export const TRUTH_ATTRIBUTE = "data-truth";

/** Describes every element carrying the truth attribute (removed first); keyed by its value. */
export async function describeTruth(
  page: Page,
  attribute = TRUTH_ATTRIBUTE,
): Promise<Record<string, Anchor>> {
  return page.evaluate((attribute) => {
    const targets = Array.from(document.querySelectorAll(`[${attribute}]`)).map(
      (element) => [element.getAttribute(attribute)!, element] as const,
    );
    for (const [, element] of targets) element.removeAttribute(attribute);
    const anchors: Record<string, Anchor> = {};
    for (const [truth, element] of targets) {
      const box = element.getBoundingClientRect();
      anchors[truth] = window.RedlineAnchoring.describe(element, {
        x: box.left + box.width * 0.25,
        y: box.top + box.height * 0.5,
      });
    }
    return anchors;
  }, attribute);
}

export interface Outcome {
  /** null: anchor() returned null. */
  status: AnchorStatus | null;
  score: number | null;
  /** Truth id of the element anchor() returned (null: none; "?": an element that is no target). */
  found: string | null;
  /** Truth id of `document.querySelector(anchor.querySelector)` — the legacy approach. */
  baseline: string | null;
  /** Truth ids of the needs-review candidates. */
  candidates: string[];
  ms: number;
}

/**
 * Anchors each stored anchor in the page (truth attribute removed first) and runs the legacy
 * baseline; `present` lists the truth ids the page has.
 */
export async function anchorTruth(
  page: Page,
  anchors: Record<string, Anchor>,
  attribute = TRUTH_ATTRIBUTE,
): Promise<{ outcomes: Record<string, Outcome>; present: string[] }> {
  return page.evaluate(
    ({ anchors, attribute }) => {
      const truthOf = new Map<Element, string>();
      for (const element of Array.from(document.querySelectorAll(`[${attribute}]`))) {
        truthOf.set(element, element.getAttribute(attribute)!);
        element.removeAttribute(attribute);
      }
      // Lay the page out again now, so the first anchor() is not billed for our attribute removal.
      document.body.getBoundingClientRect();
      // "?" marks an element that is no target at all.
      const idOf = (element: Element | null | undefined) => (element ? (truthOf.get(element) ?? "?") : null);
      const outcomes: Record<string, Outcome> = {};
      for (const [truth, stored] of Object.entries(anchors)) {
        const started = performance.now();
        const result = window.RedlineAnchoring.anchor(document, stored);
        const ms = performance.now() - started;
        let legacy: Element | null = null;
        try {
          legacy = document.querySelector(stored.querySelector);
        } catch {}
        outcomes[truth] = {
          status: result?.status ?? null,
          score: result?.score ?? null,
          found: idOf(result?.element),
          baseline: idOf(legacy),
          candidates: (result?.candidates ?? []).map((element) => idOf(element) ?? "?"),
          ms,
        };
      }
      return { outcomes, present: [...truthOf.values()] };
    },
    { anchors, attribute },
  );
}

/** correct: anchored (exact/fuzzy) to the truth; wrong: anchored elsewhere; unanchored: null or needs-review. */
export type Verdict = "correct" | "wrong" | "unanchored";

/**
 * For a target that still exists, only the right element is correct. For one that was removed, not
 * anchoring is correct and anchoring anything is wrong.
 */
export function verdict(truth: string, outcome: Outcome, exists: boolean): Verdict {
  const anchored = outcome.status === "exact" || outcome.status === "fuzzy";
  if (!exists) return anchored ? "wrong" : "correct";
  if (!anchored) return "unanchored";
  return outcome.found === truth ? "correct" : "wrong";
}

export function baselineVerdict(truth: string, outcome: Outcome, exists: boolean): Verdict {
  if (!exists) return outcome.baseline === null ? "correct" : "wrong";
  if (outcome.baseline === null) return "unanchored";
  return outcome.baseline === truth ? "correct" : "wrong";
}
