#!/usr/bin/env node
// Type-checks every TypeScript project of the repository, as many at once as the machine has cores (each
// `tsc` is single-threaded): the largest first, so the last to finish is a small one. Prints the errors
// of a project that fails and exits non-zero when any does.
import { spawn } from "node:child_process";
import os from "node:os";

const PROJECTS = [
  "apps/server",
  "apps/web",
  "e2e",
  "packages/stand-ins",
  "bench",
  "packages/capture",
  "packages/overlay",
  "packages/widget",
  "packages/anchoring",
  "packages/inpage",
  "packages/shared",
  "bench/capture",
  "bench/anchoring",
];

const check = (project) =>
  new Promise((resolve) => {
    const child = spawn("npx", ["tsc", "-p", project], { env: process.env });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (code) => resolve({ project, code, output }));
  });

const queue = [...PROJECTS];
const failed = [];
const worker = async () => {
  for (let project = queue.shift(); project; project = queue.shift()) {
    const { code, output } = await check(project);
    if (code !== 0) {
      failed.push(project);
      process.stdout.write(`✖ tsc -p ${project}\n${output}`);
    }
  }
};
await Promise.all(Array.from({ length: Math.max(1, os.availableParallelism()) }, worker));
if (failed.length > 0) {
  console.error(`type errors in ${failed.join(", ")}`);
  process.exit(1);
}
