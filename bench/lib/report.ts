/** Shared by the benches: percentiles and rewriting one section of docs/PERFORMANCE.md. */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Replaces (or appends) the `## {title}` section of docs/PERFORMANCE.md; other sections stay as they are. */
export async function writeSection(title: string, body: string): Promise<void> {
  const file = path.join(repoRoot, "docs/PERFORMANCE.md");
  const current = await readFile(file, "utf8").catch(() => "# Performance\n");
  const heading = `## ${title}`;
  const start = current.indexOf(`${heading}\n`);
  const section = `${heading}\n\n${body.trim()}\n`;
  if (start === -1) return writeFile(file, `${current.trimEnd()}\n\n${section}`);
  const next = current.indexOf("\n## ", start + heading.length);
  const end = next === -1 ? current.length : next + 1;
  await writeFile(
    file,
    `${current.slice(0, start)}${section}${next === -1 ? "" : "\n"}${current.slice(end)}`,
  );
}
