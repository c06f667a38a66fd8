/** The built overlay (dist/overlay.js), rebuilt first when missing or older than any of its sources. */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const PACKAGE = path.resolve(import.meta.dirname, "../..");
export const BUNDLE_PATH = path.join(PACKAGE, "dist/overlay.js");
const SOURCES = [
  path.join(PACKAGE, "src"),
  path.join(PACKAGE, "build.mjs"),
  path.resolve(PACKAGE, "../anchoring/src"),
  path.resolve(PACKAGE, "../inpage/src"),
  path.resolve(PACKAGE, "../shared/src/frame-messages.ts"),
];

function newest(file: string): number {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(file)) {
    if (entry.endsWith(".test.ts") || entry === "testing" || entry === "fixtures") continue;
    latest = Math.max(latest, newest(path.join(file, entry)));
  }
  return latest;
}

export function overlayBundle(): string {
  let builtAt = 0;
  try {
    builtAt = statSync(BUNDLE_PATH).mtimeMs;
  } catch {}
  if (builtAt < Math.max(...SOURCES.map(newest))) {
    execFileSync(process.execPath, [path.join(PACKAGE, "build.mjs")], { cwd: PACKAGE, stdio: "pipe" });
  }
  return readFileSync(BUNDLE_PATH, "utf8");
}
