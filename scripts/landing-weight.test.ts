import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANDING_ROUTE_MODULE, landingWeight } from "./landing-weight.ts";

/** Issue #34: a visitor's first load of `/` (all scripts and styles, gzip). It was 237 KB. */
const BUDGET_GZIP_BYTES = 150 * 1024;

let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "redline-web-"));
  // The real build (apps/web/vite.config.ts) into a folder of its own, with the manifest it is measured by.
  await promisify(execFile)(
    "node_modules/.bin/vite",
    ["build", "--outDir", outDir, "--emptyOutDir", "--manifest", "--logLevel", "error"],
    // Vitest sets NODE_ENV=test, which would make React build its development flavour.
    { cwd: "apps/web", env: { ...process.env, NODE_ENV: "production" } },
  );
}, 180_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe("the signed-out landing page's first load", () => {
  it(`stays within ${BUDGET_GZIP_BYTES / 1024} KB gzip`, () => {
    const { totalGzipBytes, files } = landingWeight(outDir);
    const list = files.map(({ file, gzipBytes }) => `${(gzipBytes / 1024).toFixed(1)} KB ${file}`).join("\n");
    expect(totalGzipBytes, list).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  });

  it("carries neither the signed-in app, the tour, the intro and setup screens nor the PDF viewer", () => {
    const names = landingWeight(outDir).files.map(({ file }) => file);
    expect(names.some((file) => file.includes("landing-page"))).toBe(true);
    for (const heavy of [
      "app-layout",
      "project-page",
      "pdf",
      "feature-tour",
      "whats-new",
      "profile-setup",
      "feedback-dialog",
    ])
      expect(names.filter((file) => file.includes(heavy))).toEqual([]);
  });

  it(`reads the landing route as ${LANDING_ROUTE_MODULE}`, () => {
    expect(() => landingWeight(outDir)).not.toThrow();
  });
});
