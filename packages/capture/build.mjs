// Builds the capture CLI as plain JavaScript, so a cold run starts without compiling TypeScript:
// `node build.mjs` writes dist/cli.js (our sources bundled, packages left to node_modules) and
// dist/single-file-init.js (SingleFile's in-page bundle, which the CLI would otherwise bundle on every
// run). Each file is written to a temporary name and renamed, so a reader never sees half a file.
import { spawnSync } from "node:child_process";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const here = import.meta.dirname;
const dist = path.join(here, "dist");
await mkdir(dist, { recursive: true });

const write = async (name, contents) => {
  const file = path.join(dist, name);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
};

/**
 * The CLI's packages are loaded with require(), not import: importing a CommonJS package from ES
 * modules makes Node scan its sources for export names (cjs-module-lexer, following re-exports), which
 * for playwright-core took about as long as loading it (0.5 s of a cold run on this machine).
 */
const requirePackages = {
  name: "redline-require-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.namespace === "require-package" || args.path.startsWith("node:")
        ? { path: args.path, external: true }
        : { path: args.path, namespace: "require-package" },
    );
    build.onLoad({ filter: /.*/, namespace: "require-package" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

const cli = await build({
  entryPoints: [path.join(here, "src/cli.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  write: false,
  logLevel: "warning",
  plugins: [requirePackages],
  banner: {
    js: `#!/usr/bin/env node
import { createRequire as __redlineCreateRequire } from "node:module";
const require = __redlineCreateRequire(import.meta.url);`,
  },
});
await write("cli.js", cli.outputFiles[0].text);

// The in-page script comes from the same function the source build uses (one definition).
const initScript = spawnSync(
  process.execPath,
  [
    "--import",
    "tsx",
    "--input-type=module",
    "-e",
    `const { buildInitScript } = await import(${JSON.stringify(path.join(here, "src/single-file-script.ts"))}); process.stdout.write(await buildInitScript());`,
  ],
  { cwd: here, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
);
if (initScript.status !== 0) {
  process.stderr.write(initScript.stderr);
  process.exit(1);
}
await write("single-file-init.js", initScript.stdout);
console.log("capture: dist/cli.js, dist/single-file-init.js");
