/**
 * One writer per embedded database. PGlite keeps its own copy of the data in memory and flushes it to
 * the folder, so two processes on one folder both acknowledge writes and the last to flush wins: half
 * of them are gone after a restart. The first process takes a lock (a directory made atomically by
 * proper-lockfile, its mtime refreshed while the process lives) and every other one is refused.
 *
 * A process killed with -9 leaves the lock behind. It is taken over at once when the owner recorded
 * beside it is a process that no longer exists on this host (or is this very process id, as after a
 * container restart), and otherwise once its mtime is older than the stale limit.
 */
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import lockfile from "proper-lockfile";

/** A lock not refreshed for this long belongs to a dead process (whatever its recorded owner says). */
const STALE_MS = 30_000;

export class DataDirInUseError extends Error {
  constructor(readonly dir: string) {
    super(
      `The embedded database at ${dir} is in use by another Redline process. ` +
        "Stop it first, or set DATABASE_URL to PostgreSQL to run several processes.",
    );
  }
}

/** Locks `dir` for this process's life; returns the function that releases the lock. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  mkdirSync(dir, { recursive: true });
  const lockPath = `${dir}.lock`;
  const ownerPath = `${dir}.owner`;
  const options = {
    realpath: false,
    lockfilePath: lockPath,
    stale: STALE_MS,
    onCompromised(error: Error) {
      // Someone removed or took over our lock: writing on would lose data, so stop.
      console.error(`lost the lock on ${dir}: ${error.message}`);
      throw error;
    },
  };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dir, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
    if (!ownerIsGone(ownerPath)) throw new DataDirInUseError(dir);
    try {
      rmdirSync(lockPath);
      release = await lockfile.lock(dir, options);
    } catch (retryError) {
      // Another process took the abandoned lock between our two steps.
      if ((retryError as NodeJS.ErrnoException).code === "ELOCKED") throw new DataDirInUseError(dir);
      throw retryError;
    }
  }
  writeFileSync(ownerPath, JSON.stringify({ host: os.hostname(), pid: process.pid }));
  return async () => {
    await release();
  };
}

function ownerIsGone(ownerPath: string): boolean {
  let owner: { host?: string; pid?: number };
  try {
    owner = JSON.parse(readFileSync(ownerPath, "utf8"));
  } catch {
    return false; // no owner written yet: the lock may be seconds old, trust it
  }
  if (owner.host !== os.hostname() || typeof owner.pid !== "number") return false;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
