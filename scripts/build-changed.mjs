#!/usr/bin/env node
// `npm start`'s build: builds only the packages whose inputs changed since their last successful build.
//
// The packages and their order are those of the root `build` script (`npm run build -w <name> && …`), so
// there is one list. A package's inputs are its own files and those of the workspace packages it depends
// on (transitively), plus the lockfile and the shared TypeScript config; their hash is written to a stamp
// (node_modules/.cache/redline-build/) after a successful build, with a fingerprint of what the build left in
// its dist/ (names and sizes). A package is built again when its inputs' hash differs, when it has no stamp,
// or when its dist/ is not what its last build left (removed, or a build interrupted midway).
// `npm run build` still builds everything.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Folders that are outputs or caches, never inputs. */
const SKIPPED = new Set(["node_modules", "dist", ".cache", "coverage", "test-results"]);
/** Files at the root every build depends on. */
const SHARED_INPUTS = ["package-lock.json", "tsconfig.base.json"];

/** The root's workspace packages by name: { dir, manifest }. */
function workspaces(root) {
  const rootManifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const found = new Map();
  for (const pattern of rootManifest.workspaces ?? []) {
    const parent = path.join(root, pattern.replace(/\/\*$/, ""));
    if (!existsSync(parent)) continue;
    for (const entry of readdirSync(parent, { withFileTypes: true })) {
      const manifestPath = path.join(parent, entry.name, "package.json");
      if (!entry.isDirectory() || !existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
      found.set(manifest.name, { dir: path.join(parent, entry.name), manifest });
    }
  }
  return { rootManifest, found };
}

/** A package and the workspace packages it depends on, transitively. */
function withDependencies(name, packages, seen = new Set()) {
  if (seen.has(name) || !packages.has(name)) return seen;
  seen.add(name);
  const { manifest } = packages.get(name);
  for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }))
    withDependencies(dependency, packages, seen);
  return seen;
}

function filesUnder(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(full));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}

/** Names and sizes of what a build left in `dir` ("" when it does not exist). */
function outputsFingerprint(dir) {
  if (!existsSync(dir)) return "";
  const hash = createHash("sha256");
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(`${path.relative(dir, full)}\0${statSync(full).size}\0`);
    }
  };
  walk(dir);
  return hash.digest("hex");
}

/** The hash of everything a package's build reads (paths and contents, in a stable order). */
export function inputsHash(root, name, packages) {
  const hash = createHash("sha256");
  const dirs = [...withDependencies(name, packages)].map((each) => packages.get(each).dir);
  const shared = SHARED_INPUTS.map((file) => path.join(root, file)).filter((file) => existsSync(file));
  for (const file of [...shared, ...dirs.flatMap(filesUnder)].sort()) {
    hash.update(path.relative(root, file));
    hash.update("\0");
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/**
 * Builds what changed under `root`; returns each package's outcome ("built" or "unchanged").
 * `log` receives one line per package.
 */
export function buildChanged(root, log = console.log) {
  const { rootManifest, found } = workspaces(root);
  const order = [...(rootManifest.scripts?.build ?? "").matchAll(/-w\s+(\S+)/g)].map((match) => match[1]);
  const stamps = path.join(root, "node_modules/.cache/redline-build");
  mkdirSync(stamps, { recursive: true });
  const outcomes = {};
  for (const name of order) {
    const workspace = found.get(name);
    if (!workspace) throw new Error(`build-changed: no workspace package named ${name}`);
    const stamp = path.join(stamps, `${name.replace(/[^a-z0-9.-]/gi, "_")}.json`);
    const dist = path.join(workspace.dir, "dist");
    const inputs = inputsHash(root, name, found);
    const last = existsSync(stamp) ? JSON.parse(readFileSync(stamp, "utf8")) : null;
    const isFresh =
      last?.inputs === inputs && last.outputs !== "" && last.outputs === outputsFingerprint(dist);
    if (isFresh) {
      log(`${name}: unchanged since its last build`);
      outcomes[name] = "unchanged";
      continue;
    }
    log(`${name}: building`);
    const { status } = spawnSync("npm", ["run", "--silent", "build"], {
      cwd: workspace.dir,
      stdio: "inherit",
    });
    if (status !== 0) throw new Error(`build-changed: building ${name} failed`);
    writeFileSync(stamp, JSON.stringify({ inputs, outputs: outputsFingerprint(dist) }));
    outcomes[name] = "built";
  }
  return outcomes;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  try {
    buildChanged(root);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
