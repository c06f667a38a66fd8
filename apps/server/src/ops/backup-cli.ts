/**
 * `npm run backup -- <folder or file>`: one archive of the database and its files (ops/backup.ts), from
 * the same environment as the server (DATABASE_URL or DATA_DIR, S3_*). Safe while the server runs.
 */
import { loadConfig } from "../env.ts";
import { backup } from "./backup.ts";
import { storageFor } from "./storage-for.ts";

const USAGE = "usage: npm run backup -- <folder or file.tar.gz>";

const [target, ...rest] = process.argv.slice(2);
if (!target || rest.length > 0 || target.startsWith("-")) {
  console.error(USAGE);
  process.exit(2);
}
try {
  const config = loadConfig();
  const { file, manifest } = await backup({ config, storage: storageFor(config), target });
  const rows = Object.values(manifest.counts).reduce((sum, n) => sum + n, 0);
  console.log(
    `${file}: ${manifest.database.kind} at migration ${manifest.database.level.tag}, ${rows} rows, ` +
      `${manifest.files.count} files (${manifest.files.bytes} bytes)`,
  );
  if (manifest.files.missing.length > 0)
    console.warn(
      `${manifest.files.missing.length} files were removed while the backup ran (their rows were deleted after its snapshot): ${manifest.files.missing.join(", ")}`,
    );
  process.exit(0);
} catch (error) {
  console.error(`backup failed: ${(error as Error).message}`);
  process.exit(1);
}
