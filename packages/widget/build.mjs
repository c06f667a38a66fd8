// Builds the widget into dist/: `node build.mjs`.
//   redline.js        the stub, one classic script (IIFE) that sites embed; short-cached
//   <name>-<hash>.js  the lazy chunks (ES modules, content-hashed; shared code split out): reporter UI,
//                     sending and the offline queue, screenshot (snapdom), replay (rrweb), the screen recorder — the stub knows their names from the manifest
//                     this build writes into it.
// Written to a temporary folder and renamed over dist/, so a server never serves half a build.
import { mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const here = import.meta.dirname;
const dist = path.join(here, "dist");
const temporary = path.join(here, `dist.${process.pid}.tmp`);
const sharedSource = path.resolve(here, "../shared/src") + path.sep;

// @redline/shared only declares things, but esbuild cannot know its zod schemas are pure: without this,
// importing two constants from the package would bundle every API schema and zod (see packages/overlay).
const sharedIsPure = {
  name: "shared-is-pure",
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "shared-is-pure") return undefined;
      const result = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: "shared-is-pure",
      });
      if (result.errors.length > 0 || !result.path.startsWith(sharedSource)) return undefined;
      return { path: result.path, sideEffects: false };
    });
  },
};

const common = {
  bundle: true,
  platform: "browser",
  target: "es2020",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
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

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
for (const file of (await readdir(dist)).sort()) {
  const code = await readFile(path.join(dist, file));
  console.log(`built dist/${file}: ${kb(code.length)} raw, ${kb(gzipSync(code).length)} gzip`);
}
