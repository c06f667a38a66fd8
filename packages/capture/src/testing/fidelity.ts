/**
 * Fidelity measurement shared by the tests and the benchmark: render a snapshot directory offline
 * (file://, network disabled) at a width and compare it, pixel by pixel, with the live screenshot.
 */
import { pathToFileURL } from "node:url";
import pixelmatch from "pixelmatch";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";

const VIEWPORT_HEIGHT = 800;

/**
 * Full-page PNG of `<dir>/index.html` opened from disk with every network request refused. Scripting
 * stays enabled, as in the viewer (the snapshot has no scripts to run).
 */
export async function renderOffline(browser: Browser, dir: string, width: number): Promise<Buffer> {
  const context = await browser.newContext({
    viewport: { width, height: VIEWPORT_HEIGHT },
    deviceScaleFactor: 1,
    offline: true,
  });
  try {
    const page = await context.newPage();
    await page.route(/^(?!file:)/, (route) => route.abort());
    await page.goto(pathToFileURL(`${dir}/index.html`).href, { waitUntil: "load" });
    await page.waitForFunction(() => document.fonts.status === "loaded", null, { timeout: 5_000 });
    return await page.screenshot({ fullPage: true, type: "png", caret: "hide" });
  } finally {
    await context.close();
  }
}

export interface Comparison {
  /** Share of identical pixels over the larger of the two images, 0..1. */
  identical: number;
  width: number;
  height: number;
  /** Difference image (red where pixels differ), for debugging. */
  readonly diff: Buffer;
}

/**
 * Compares two PNGs. Pixels outside the smaller image count as different, so a snapshot that is
 * shorter or taller than the live page is penalised for every missing or extra row.
 */
export function comparePngs(a: Buffer, b: Buffer): Comparison {
  const left = PNG.sync.read(a);
  const right = PNG.sync.read(b);
  const width = Math.max(left.width, right.width);
  const height = Math.max(left.height, right.height);
  const padded = [left, right].map((image) => {
    const canvas = new PNG({ width, height, fill: true });
    canvas.data.fill(0);
    PNG.bitblt(image, canvas, 0, 0, image.width, image.height, 0, 0);
    return canvas;
  });
  const diff = new PNG({ width, height });
  const different = pixelmatch(padded[0]!.data, padded[1]!.data, diff.data, width, height, {
    threshold: 0.1,
  });
  // Encoding the difference image costs as much as the comparison on a long page: only on demand.
  let encoded: Buffer | undefined;
  return {
    identical: 1 - different / (width * height),
    width,
    height,
    get diff() {
      encoded ??= PNG.sync.write(diff);
      return encoded;
    },
  };
}
