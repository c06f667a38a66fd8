/**
 * The embedded stand-ins of outside services (packages/stand-ins) never ship on the production code path:
 * no static import reaches them from the server's entry (main.ts), following relative imports and the
 * workspace packages' exports; app.ts loads them with a dynamic import, only for a config that wants one,
 * which a production config never does. And the package never imports the app (a wrong-way dependency).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { wantsStandIns } from "./app.ts";
import { loadConfig } from "./env.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const standIns = path.join(root, "packages/stand-ins");

/** Static imports that load code at run time (`import type` is erased; `import()` is dynamic). */
function staticImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(
    /^(?:import|export)(?!\s+type\s)[^'"]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gms,
  ))
    found.push((match[1] ?? match[2])!);
  return found;
}

/** The file a specifier names: a relative path, or a workspace package (`@redline/x[/sub]`) by its exports. */
function resolveImport(from: string, specifier: string): string | null {
  if (specifier.startsWith(".")) return path.resolve(path.dirname(from), specifier);
  const workspace = /^@redline\/([^/]+)(\/.+)?$/.exec(specifier);
  if (!workspace) return null;
  for (const dir of ["packages", "apps"]) {
    const pkgDir = path.join(root, dir, workspace[1]!);
    let manifest: { exports?: Record<string, string> };
    try {
      manifest = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8"));
    } catch {
      continue;
    }
    const target = manifest.exports?.[`.${workspace[2] ?? ""}`];
    return target ? path.join(pkgDir, target) : pkgDir;
  }
  return null;
}

function reachableFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.tsx?$/.test(file) || file.startsWith(standIns)) continue;
    for (const specifier of staticImports(readFileSync(file, "utf8"))) {
      const target = resolveImport(file, specifier);
      if (target) todo.push(target);
    }
  }
  return seen;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(path.join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [path.join(dir, entry.name)]
        : [],
  );
}

describe("the stand-ins package", () => {
  it("is reached by no static import from the server's entry", () => {
    const reached = reachableFrom(path.join(root, "apps/server/src/main.ts"));
    // The walk itself works: it reaches the app and the shared package.
    expect(reached.has(path.join(root, "apps/server/src/app.ts"))).toBe(true);
    expect(reached.has(path.join(root, "packages/shared/src/index.ts"))).toBe(true);
    expect([...reached].filter((file) => file.startsWith(standIns))).toEqual([]);
  });

  it("is loaded only for a config outside production", () => {
    const env = { DATA_DIR: "/tmp/redline-stand-ins-test", AUTH_SECRET: "s".repeat(40) };
    expect(wantsStandIns(loadConfig(env))).toBe(true);
    const production = loadConfig({
      ...env,
      NODE_ENV: "production",
      APP_URL: "https://review.example.com",
      STRIPE_SECRET_KEY: "sk_live_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
    });
    expect(wantsStandIns(production)).toBe(false);
    // Even a production config without keys: no stand-in (env.ts leaves those services off).
    expect(
      wantsStandIns(loadConfig({ ...env, NODE_ENV: "production", APP_URL: "https://review.example.com" })),
    ).toBe(false);
  });

  it("imports nothing from the app", () => {
    const wrongWay = files(path.join(standIns, "src")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from "([^"]+)"/g)]
        .map((match) => match[1]!)
        .filter((specifier) => {
          const target = resolveImport(file, specifier);
          return (
            specifier === "@redline/server" ||
            (target !== null && !target.startsWith(`${root + path.sep}packages`))
          );
        })
        .map((specifier) => `${path.relative(root, file)} → ${specifier}`),
    );
    expect(wrongWay).toEqual([]);
  });
});
