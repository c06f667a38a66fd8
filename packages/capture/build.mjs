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

const cli = await build({
  entryPoints: [path.join(here, "src/cli.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  write: false,
  logLevel: "warning",
  banner: { js: "#!/usr/bin/env node" },
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
