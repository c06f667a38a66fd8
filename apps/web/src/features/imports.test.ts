/**
 * Pages and layouts compose features; a feature never imports another feature's components (.tsx) — only
 * its hooks, queries and rules (.ts). So features stay replaceable, and no import loop can form between
 * them (viewer ↔ comments ↔ inspect once did).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const features = path.resolve(import.meta.dirname);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(path.join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [path.join(dir, entry.name)]
        : [],
  );
}

describe("features", () => {
  it("import no other feature's components", () => {
    const crossings: string[] = [];
    for (const file of files(features)) {
      const own = path.relative(features, file).split(path.sep)[0];
      for (const match of readFileSync(file, "utf8").matchAll(/from "(\.\.?\/[^"]+\.tsx)"/g)) {
        const target = path.relative(features, path.resolve(path.dirname(file), match[1]!));
        const feature = target.split(path.sep)[0];
        if (!target.startsWith("..") && feature !== own)
          crossings.push(`${path.relative(features, file)} → ${target}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  it("are never imported by the shared components (components/ sit below every feature)", () => {
    const components = path.resolve(features, "../components");
    const upward: string[] = [];
    for (const file of files(components))
      for (const match of readFileSync(file, "utf8").matchAll(/from "(\.\.?\/[^"]+)"/g)) {
        const target = path.resolve(path.dirname(file), match[1]!);
        if (target.startsWith(features + path.sep))
          upward.push(`${path.relative(components, file)} → ${path.relative(features, target)}`);
      }
    expect(upward).toEqual([]);
  });
});
