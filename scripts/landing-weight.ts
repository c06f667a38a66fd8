/**
 * The signed-out landing page's first load (issue #34): every script and style index.html loads up front
 * (the entry, its static imports, its CSS) plus what the `/` route imports before its first render (the
 * landing page's chunk and its static imports), each file counted once, gzip-compressed. Reads a Vite
 * manifest (`build.manifest`), so it follows the build rather than guessing from file names.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const LANDING_ROUTE_MODULE = "src/pages/landing-page.tsx";

/** The files of `keys` and everything they import statically, CSS included, in load order. */
function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const key of keys) visit(key);
  return [...files];
}

export interface LandingWeight {
  /** Gzip bytes of each file of the first load. */
  files: { file: string; gzipBytes: number }[];
  totalGzipBytes: number;
}

/** Measures the first load of `/` in a built web app (`outDir` holding `.vite/manifest.json`). */
export function landingWeight(
  outDir: string,
  manifestPath = join(outDir, ".vite/manifest.json"),
): LandingWeight {
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  const files = staticClosure(manifest, [...entries, LANDING_ROUTE_MODULE])
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => ({ file, gzipBytes: gzipSync(readFileSync(join(outDir, file))).length }));
  return { files, totalGzipBytes: files.reduce((sum, { gzipBytes }) => sum + gzipBytes, 0) };
}
