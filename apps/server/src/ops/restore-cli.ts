/**
 * `npm run restore -- <backup.tar.gz> [--force]`: puts a backup into the instance this environment
 * configures (ops/restore.ts). Stop the server first; with --force an existing database is replaced.
 */
import { loadConfig } from "../env.ts";
import { RestoreRefused, restore } from "./restore.ts";
import { storageFor } from "./storage-for.ts";

const USAGE = "usage: npm run restore -- <backup.tar.gz> [--force]";

const args = process.argv.slice(2);
const force = args.includes("--force");
const [archive, ...rest] = args.filter((arg) => arg !== "--force");
if (!archive || rest.length > 0 || archive.startsWith("-")) {
  console.error(USAGE);
  process.exit(2);
}
try {
  const config = loadConfig();
  const result = await restore({ config, storage: storageFor(config), archive, force });
  console.log(
    `restored the backup of ${result.manifest.createdAt} (${result.manifest.database.kind}, migration ${result.manifest.database.level.tag}) with ${result.files} files; start the server to migrate it to this release`,
  );
  for (const note of result.notes) console.log(note);
  process.exit(0);
} catch (error) {
  console.error(
    error instanceof RestoreRefused ? error.message : `restore failed: ${(error as Error).message}`,
  );
  process.exit(1);
}
