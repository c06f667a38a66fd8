#!/usr/bin/env node
// The whole suite, in the order a reviewer would want failures: lint, types, build, then every test
// (unit + API against real databases, then end-to-end in Chromium). Ends with one summary line.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

const results = ".vitest-results.json";
const run = (label, command, args) => {
  console.log(`\n▶ ${label}`);
  const { status } = spawnSync(command, args, { stdio: "inherit", env: process.env });
  if (status !== 0) {
    console.error(`✖ ${label} failed`);
    process.exit(status ?? 1);
  }
};

run("lint", "npx", ["biome", "check", "."]);
run("typecheck", "npm", ["run", "--silent", "typecheck"]);
run("build web", "npm", ["run", "--silent", "build"]);

rmSync(results, { force: true });
console.log("\n▶ tests");
const tests = spawnSync(
  "npx",
  [
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${results}`,
    ...process.argv.slice(2),
  ],
  { stdio: "inherit", env: process.env },
);
if (existsSync(results)) {
  const summary = JSON.parse(readFileSync(results, "utf8"));
  const skipped = summary.numPendingTests + summary.numTodoTests;
  console.log(`\n${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${skipped} skipped`);
}
process.exit(tests.status ?? 1);
