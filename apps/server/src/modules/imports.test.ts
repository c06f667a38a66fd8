/**
 * Product modules (one folder each under modules/) depend one way: no two import each other (issue #28:
 * 12 such pairs → 0). Read from the sources, `import type` included; tests are left out.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const modulesDir = import.meta.dirname;

/** Module → the other modules its non-test sources import. */
function moduleImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const entry of readdirSync(modulesDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const from = path.relative(modulesDir, file).split(path.sep)[0]!;
    if (from === path.basename(file)) continue; // a file directly under modules/ (this test)
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(/^(?:import|export)\b[^'"]*?from\s+"(\.[^"]+)"/gms)) {
      const target = path.relative(modulesDir, path.resolve(path.dirname(file), match[1]!));
      const to = target.split(path.sep)[0]!;
      if (target.startsWith("..") || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

describe("product modules depend one way", () => {
  it("has no two modules importing each other", () => {
    const graph = moduleImports();
    const pairs: string[] = [];
    for (const [from, targets] of graph)
      for (const to of targets) if (from < to && graph.get(to)?.has(from)) pairs.push(`${from} ⇄ ${to}`);
    expect(pairs.sort()).toEqual([]);
  });
});
