/**
 * Every workspace declares the @redline/* packages it imports (issue: manifests that tell the truth), so
 * the dependency graph npm sees is the one the code has — and a new import without its declaration
 * fails here rather than at a consumer's install.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const rootManifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  workspaces: string[];
};
const workspaces = rootManifest.workspaces.flatMap((pattern) =>
  pattern.endsWith("/*")
    ? readdirSync(path.join(root, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -2)}/${name}`)
    : [pattern],
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (name === "node_modules" || name === "dist") return [];
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.(ts|tsx)$/.test(name) ? [file] : [];
  });
}

describe.each(workspaces)("%s", (workspace) => {
  it("declares every @redline package it imports", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, workspace, "package.json"), "utf8"));
    const declared = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    const imported = new Set<string>();
    for (const file of sourceFiles(path.join(root, workspace, "src"))) {
      for (const match of readFileSync(file, "utf8").matchAll(/from "(@redline\/[a-z-]+)/g))
        imported.add(match[1]!);
    }
    imported.delete(manifest.name);
    expect([...imported].filter((name) => !declared.includes(name))).toEqual([]);
  });
});
