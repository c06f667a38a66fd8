// Builds the widget into dist/: `node build.mjs`.
//   redline.js        the stub, one classic script (IIFE) that sites embed; short-cached
//   <name>-<hash>.js  the lazy chunks (ES modules, content-hashed; shared code split out): reporter UI,
//                     sending and the offline queue, screenshot (snapdom), replay (rrweb), the screen recorder — the stub knows their names from the manifest
//                     this build writes into it.
// Written to a temporary folder and renamed over dist/, so a server never serves half a build.
import { mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { builtLine, sharedIsPure } from "../shared/esbuild-shared.mjs";

const here = import.meta.dirname;
const dist = path.join(here, "dist");
const temporary = path.join(here, `dist.${process.pid}.tmp`);

const common = {
  bundle: true,
  platform: "browser",
  target: "es2020",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  // @redline/shared is pure (its esbuild-shared.mjs): only what is used is bundled.
  plugins: [sharedIsPure],
  metafile: true,
};

await rm(temporary, { recursive: true, force: true });
await mkdir(temporary, { recursive: true });

const chunks = await build({
  ...common,
  entryPoints: {
    reporter: path.join(here, "src/reporter.ts"),
    queue: path.join(here, "src/queue.ts"),
    screenshot: path.join(here, "src/screenshot.ts"),
    replay: path.join(here, "src/replay.ts"),
    record: path.join(here, "src/record.ts"),
  },
  outdir: temporary,
  format: "esm",
  splitting: true,
  entryNames: "[name]-[hash]",
  chunkNames: "shared-[hash]",
  banner: { js: "/* Redline widget — AGPL-3.0-only */" },
});
const manifest = {};
for (const [file, output] of Object.entries(chunks.metafile.outputs)) {
  if (!output.entryPoint) continue;
  const name = path.basename(output.entryPoint, ".ts");
  manifest[name] = path.basename(file);
}

await build({
  ...common,
  entryPoints: [path.join(here, "src/index.ts")],
  outfile: path.join(temporary, "redline.js"),
  format: "iife",
  define: { __REDLINE_CHUNKS__: JSON.stringify(manifest) },
  banner: { js: "/* Redline widget — AGPL-3.0-only */" },
});

await rm(`${dist}.old`, { recursive: true, force: true });
await rename(dist, `${dist}.old`).catch(() => undefined);
await rename(temporary, dist);
await rm(`${dist}.old`, { recursive: true, force: true });

for (const file of (await readdir(dist)).sort())
  console.log(builtLine(`dist/${file}`, await readFile(path.join(dist, file))));
