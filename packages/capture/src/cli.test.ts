import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseCaptureCliArgs } from "./cli-options.ts";

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), "cli.ts");
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
      const run = spawnSync(process.execPath, ["--import", "tsx", cli, url, "--out", "/tmp/never-written"], {
        env: { PATH: process.env.PATH, NODE_ENV: "production" },
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/capture failed \(blocked-url\).*private address/);
    },
  );
});
