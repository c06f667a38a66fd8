// The extension's zips must stay small (issue #31: at most 150 KB): fails the zip script beyond that.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";

const LIMIT = 150 * 1024;
const dist = path.join(import.meta.dirname, "../dist");
let failed = false;
for (const name of (await readdir(dist)).filter(
  (file) => file.endsWith(".zip") && !file.includes("sources"),
)) {
  const { size } = await stat(path.join(dist, name));
  console.log(`${name}: ${(size / 1024).toFixed(1)} KB`);
  if (size > LIMIT) failed = true;
}
if (failed) {
  console.error(`An extension zip is larger than ${LIMIT / 1024} KB.`);
  process.exit(1);
}
