// Builds dist/overlay.js, the script the content server injects into every snapshot: `node build.mjs`.
// One IIFE with @redline/anchoring and the frame protocol inside. Written to a temporary file and
// renamed, so a test or server reading the bundle while another build runs never sees half a file.
import { readFile, rename } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { builtLine, sharedIsPure } from "../shared/esbuild-shared.mjs";

const here = import.meta.dirname;
const outfile = path.join(here, "dist/overlay.js");
const temporary = `${outfile}.${process.pid}.tmp`;

// The overlay may add one global to the page, `__redlineOverlay`. zod keeps its config (and registry)
// on `globalThis` so that several copies share them; ours is the only copy in the page, so it gets a
// private object instead.
const zodOffWindow = {
  name: "zod-off-window",
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]core[\\/](core|registries)\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes("globalThis")) throw new Error(`zod changed: no globalThis in ${args.path}`);
      return {
        contents: `const zodGlobals = {};\n${source.replaceAll("globalThis", "zodGlobals")}`,
        loader: "js",
      };
    });
  },
};

// The overlay's CSS is written to be read (comments, one declaration a line); the bundle gets it without
// comments and layout whitespace, which every snapshot would otherwise download (~0.3 KB gzip).
const compactCss = {
  name: "compact-css",
  setup(build) {
    build.onLoad({ filter: /[\\/]overlay[\\/]src[\\/]styles\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const contents = source.replace(/(OVERLAY_CSS = `)([^`]*)`/, (_, start, css) => {
        const compact = css
          .replace(/\/\*[\s\S]*?\*\//g, "")
          .replace(/\s+/g, " ")
          .replace(/\s*([{};,>])\s*/g, "$1")
          .replace(/([\w-]): /g, "$1:")
          .replaceAll(" !important", "!important")
          .replaceAll(";}", "}")
          .trim();
        return `${start}${compact}\``;
      });
      if (contents === source) throw new Error(`no OVERLAY_CSS template in ${args.path}`);
      return { contents, loader: "ts" };
    });
  },
};

const result = await build({
  entryPoints: [path.join(here, "src/index.ts")],
  outfile: temporary,
  bundle: true,
  format: "iife",
  target: "es2022",
  platform: "browser",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [sharedIsPure, zodOffWindow, compactCss],
  banner: { js: "/* Redline overlay — AGPL-3.0-only */" },
});
if (result.errors.length > 0) process.exit(1);
await rename(temporary, outfile);

const code = await readFile(outfile);
console.log(builtLine(path.relative(process.cwd(), outfile), code));
