// Builds the ESM browser bundle dist/anchoring.js: `node build.mjs`. Written to a temporary file and
// renamed, so a test reading the bundle while another builds it never sees half a file.
import { rename } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const here = import.meta.dirname;
const outfile = path.join(here, "dist/anchoring.js");
const temporary = `${outfile}.${process.pid}.tmp`;

await build({
  entryPoints: [path.join(here, "src/index.ts")],
  outfile: temporary,
  bundle: true,
  format: "esm",
  target: "es2020",
  platform: "browser",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
await rename(temporary, outfile);
console.log(`built ${path.relative(process.cwd(), outfile)}`);
