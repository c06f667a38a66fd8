import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { overlayBundle } from "./testing/bundle.ts";

/** The overlay loads into every snapshot a reviewer opens. */
const BUDGET_GZIP_BYTES = 30 * 1024;

describe("dist/overlay.js", () => {
  it(`stays within ${BUDGET_GZIP_BYTES / 1024} KB gzip`, () => {
    const code = Buffer.from(overlayBundle());
    expect(gzipSync(code).length).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  });

  it("is one classic script that touches no module system and no eval", () => {
    const code = overlayBundle();
    expect(code).not.toMatch(/\bimport\s*\(|\bexport\s*\{|\brequire\(/);
    // The snapshot's CSP has no 'unsafe-eval' (zod/mini, unlike classic zod, never compiles parsers).
    // `Function.prototype` itself is fine: the in-page kit binds its `call` once.
    expect(code).not.toMatch(/\beval\(|\bFunction\s*\(/);
  });
});
