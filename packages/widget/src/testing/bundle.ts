/** The built widget (dist/), rebuilt first when missing or older than any of its sources. */
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

export const PACKAGE = path.resolve(import.meta.dirname, "../..");
export const DIST = path.join(PACKAGE, "dist");

function newest(file: string): number {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(file)) {
    if (entry.endsWith(".test.ts") || entry === "testing") continue;
    latest = Math.max(latest, newest(path.join(file, entry)));
  }
  return latest;
}

export function ensureWidgetBuilt(): string {
  let builtAt = 0;
  try {
    builtAt = statSync(path.join(DIST, "redline.js")).mtimeMs;
  } catch {}
  const sources = [
    path.join(PACKAGE, "src"),
    path.join(PACKAGE, "build.mjs"),
    path.resolve(PACKAGE, "../inpage/src"),
  ];
  if (builtAt < Math.max(...sources.map(newest)))
    execFileSync(process.execPath, [path.join(PACKAGE, "build.mjs")], { cwd: PACKAGE, stdio: "pipe" });
  return DIST;
}
