import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain script, without types
import { buildChanged } from "./build-changed.mjs";

/** A workspace of three packages: `app` depends on `lib`; `other` on nothing. Each build counts itself. */
function makeWorkspace(root: string) {
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  write(
    "package.json",
    JSON.stringify({
      name: "fixture",
      private: true,
      workspaces: ["packages/*"],
      scripts: { build: "npm run build -w @x/app && npm run build -w @x/other" },
    }),
  );
  write("package-lock.json", "{}");
  const counter =
    "const fs=require('fs');fs.mkdirSync('dist',{recursive:true});let n=0;try{n=+fs.readFileSync('dist/builds','utf8')}catch{};fs.writeFileSync('dist/builds',String(n+1))";
  for (const [name, deps] of [
    ["app", { "@x/lib": "0.0.0" }],
    ["other", {}],
    ["lib", {}],
  ] as const) {
    write(
      `packages/${name}/package.json`,
      JSON.stringify({ name: `@x/${name}`, dependencies: deps, scripts: { build: `node -e "${counter}"` } }),
    );
    write(`packages/${name}/src/index.ts`, `export const name = "${name}";\n`);
  }
}

const builds = async (root: string, name: string) =>
  Number(await readFile(path.join(root, "packages", name, "dist/builds"), "utf8"));

describe("build-changed (npm start's build)", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "build-changed-"));
    makeWorkspace(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("builds every package of the build script the first time, then nothing while nothing changed", () => {
    expect(buildChanged(root, () => {})).toEqual({ "@x/app": "built", "@x/other": "built" });
    expect(buildChanged(root, () => {})).toEqual({ "@x/app": "unchanged", "@x/other": "unchanged" });
  });

  it("rebuilds a package whose own sources, a dependency's sources or the lockfile changed — only those", async () => {
    buildChanged(root, () => {});
    await writeFile(path.join(root, "packages/lib/src/index.ts"), 'export const name = "lib 2";\n');
    expect(buildChanged(root, () => {})).toEqual({ "@x/app": "built", "@x/other": "unchanged" });
    expect(await builds(root, "app")).toBe(2);
    expect(await builds(root, "other")).toBe(1);
    await writeFile(path.join(root, "packages/other/src/new.ts"), "export {};\n");
    expect(buildChanged(root, () => {})).toEqual({ "@x/app": "unchanged", "@x/other": "built" });
    await writeFile(path.join(root, "package-lock.json"), '{"changed":true}');
    expect(buildChanged(root, () => {})).toEqual({ "@x/app": "built", "@x/other": "built" });
  });

  it("rebuilds a package whose output was removed or is not what its last build left", async () => {
    buildChanged(root, () => {});
    await rm(path.join(root, "packages/other/dist"), { recursive: true });
    expect(buildChanged(root, () => {})).toEqual({ "@x/app": "unchanged", "@x/other": "built" });
    // An interrupted `npm run build` (a bundler empties dist/ first) leaves other files than the last build.
    await writeFile(path.join(root, "packages/app/dist/builds"), "");
    expect(buildChanged(root, () => {})).toEqual({ "@x/app": "built", "@x/other": "unchanged" });
  });

  it("stops with the package's name when its build fails, and builds it again next time", async () => {
    const manifest = path.join(root, "packages/other/package.json");
    const original = await readFile(manifest, "utf8");
    await writeFile(manifest, JSON.stringify({ name: "@x/other", scripts: { build: "exit 3" } }));
    expect(() => buildChanged(root, () => {})).toThrow("building @x/other failed");
    await writeFile(manifest, original);
    expect(buildChanged(root, () => {})).toEqual({ "@x/app": "unchanged", "@x/other": "built" });
  });
});
