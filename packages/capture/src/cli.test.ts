import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCaptureCliArgs } from "./cli-options.ts";
import { startFixtureServer } from "./testing/fixture-server.ts";

const execFileAsync = promisify(execFile);
// The CLI as it ships: built JavaScript (`npm run build`; built here when a test runs alone).
const packageDir = path.resolve(import.meta.dirname, "..");
const cli = path.join(packageDir, "dist/cli.js");
beforeAll(() => {
  if (existsSync(cli) && existsSync(path.join(packageDir, "dist/single-file-init.js"))) return;
  const build = spawnSync(process.execPath, ["build.mjs"], { cwd: packageDir, encoding: "utf8" });
  if (build.status !== 0) throw new Error(build.stderr);
}, 60_000);
const allowsPrivate = (args: string[], env: { NODE_ENV?: string }) => {
  const options = parseCaptureCliArgs(["https://example.com", "--out", "/tmp/x", ...args], env);
  return "exitCode" in options ? options : options.allowPrivateUrls;
};

describe("capture CLI: private targets", () => {
  it("follows the server's rule: refused in production unless --allow-private, allowed elsewhere", () => {
    expect(allowsPrivate([], { NODE_ENV: "production" })).toBe(false);
    expect(allowsPrivate(["--allow-private"], { NODE_ENV: "production" })).toBe(true);
    expect(allowsPrivate([], {})).toBe(true);
    expect(allowsPrivate([], { NODE_ENV: "development" })).toBe(true);
    expect(allowsPrivate(["--no-private"], {})).toBe(false);
    expect(allowsPrivate(["--allow-private", "--no-private"], {})).toEqual({ exitCode: 2 });
  });

  it.each(["http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:9/"])(
    "refuses %s under NODE_ENV=production before starting a browser",
    (url) => {
      const run = spawnSync(process.execPath, [cli, url, "--out", "/tmp/never-written"], {
        env: { PATH: process.env.PATH, NODE_ENV: "production" },
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/capture failed \(blocked-url\).*private address/);
    },
  );
});

describe("capture CLI: a capture", () => {
  it("starts as built JavaScript and writes the snapshot, the live screenshot and the capture facts", async () => {
    const server = await startFixtureServer({ root: path.join(import.meta.dirname, "testing/site") });
    const out = await mkdtemp(path.join(tmpdir(), "redline-cli-"));
    try {
      // Asynchronously: this process serves the page the CLI captures.
      const run = await execFileAsync(
        process.execPath,
        [cli, `${server.url}/pages/animations.html`, "--out", out],
        {
          env: {
            PATH: process.env.PATH,
            ...(process.env.CHROMIUM_PATH && { CHROMIUM_PATH: process.env.CHROMIUM_PATH }),
          },
          encoding: "utf8",
          timeout: 60_000,
        },
      );
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain("Animations");
      expect(await readFile(path.join(out, "index.html"), "utf8")).toContain("Quarterly report");
      expect((await readFile(path.join(out, "live.png"))).subarray(1, 4).toString()).toBe("PNG");
      const facts = JSON.parse(await readFile(path.join(out, "capture.json"), "utf8"));
      expect(facts.settled).toEqual({ complete: true, busy: [] });
    } finally {
      await server.close();
      await rm(out, { recursive: true, force: true });
    }
  });
});
