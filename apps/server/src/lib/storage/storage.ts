/**
 * File storage provider. Local disk under DATA_DIR/files is the embedded default; an S3 implementation
 * comes behind the same interface. Keys are slash-separated and never contain "..".
 */
import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

export interface StoredFile {
  stream: Readable;
  size: number;
}

export interface ListedFile {
  key: string;
  modifiedAt: Date;
}

export interface Storage {
  put(key: string, data: Buffer): Promise<void>;
  /**
   * Stores bytes under a name derived from their SHA-256 (`sha256`): a file already there is trusted
   * only when its bytes hash to that name; a torn or empty one is written again.
   */
  putContentAddressed(key: string, data: Buffer, sha256: string): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
  /** A stored file's size in bytes, or null when there is none. */
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** Every stored file (including temporary files a crashed write left), with when it was last written. */
  list(): AsyncIterable<ListedFile>;
}

const KEY_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/** Removes a file that was just replaced by `current` (a thumbnail); a failed removal only leaves a file behind. */
export async function removeReplaced(storage: Storage, old: string | null, current: string): Promise<void> {
  if (old && old !== current) await storage.delete(old).catch(() => undefined);
}

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.split("/").some((part) => part === ".." || part === ".");
}

/**
 * Writes `data` to `file` so that a crash at any moment leaves either the previous file or the whole new
 * one, never a torn or empty file: the bytes go to a temporary file beside it, reach the disk (fsync),
 * and only then take the final name with an atomic rename, whose directory entry is synced in turn.
 */
export async function writeAtomically(file: string, data: Buffer): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  const handle = await open(temporary, "w", 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  const directory = await open(path.dirname(file), "r");
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

export function createLocalStorage(root: string): Storage {
  const resolve = (key: string) => {
    if (!isValidKey(key)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(root, ...key.split("/"));
  };
  return {
    async put(key, data) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeAtomically(file, data);
    },
    async get(key) {
      if (!isValidKey(key)) return null;
      const file = resolve(key);
      try {
        const info = await stat(file);
        if (!info.isFile()) return null;
        return { stream: createReadStream(file), size: info.size };
      } catch {
        return null;
      }
    },
    async size(key) {
      if (!isValidKey(key)) return null;
      const info = await stat(resolve(key)).catch(() => null);
      return info?.isFile() ? info.size : null;
    },
    async putContentAddressed(key, data, sha256) {
      const file = resolve(key);
      const existing = await readFile(file).catch(() => null);
      if (existing && createHash("sha256").update(existing).digest("hex") === sha256) {
        // In use again: its time restarts, so the file collector's grace period covers this new use.
        const now = new Date();
        await utimes(file, now, now).catch(() => undefined);
        return;
      }
      await mkdir(path.dirname(file), { recursive: true });
      await writeAtomically(file, data);
    },
    async delete(key) {
      await rm(resolve(key), { force: true });
    },
    async *list() {
      const names = await readdir(root, { recursive: true }).catch(() => [] as string[]);
      for (const name of names) {
        const info = await stat(path.join(root, name)).catch(() => null);
        if (info?.isFile()) yield { key: name.split(path.sep).join("/"), modifiedAt: info.mtime };
      }
    },
  };
}
