import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** End-to-end tests run against the built SPA; `npm test` builds it first. */
export default function setup() {
  const index = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../apps/web/dist/index.html");
  if (!existsSync(index))
    throw new Error("apps/web/dist is missing: run `npm run build` before the e2e tests.");
}
