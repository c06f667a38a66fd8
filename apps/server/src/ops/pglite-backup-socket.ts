/**
 * A running server holds its embedded database alone (lib/data-dir-lock.ts), so a backup of it is made by
 * that process: it listens on a Unix socket beside the data folder (`<pgliteDir>.sock`, readable by the
 * folder's owner only — whoever may read the socket may read the folder anyway), and answers each
 * connection with PGlite's `dumpDataDir`: the cluster's files taken between two statements, which
 * PostgreSQL opens like after a crash at that instant (a transaction still open is not in it).
 *
 * Answer: one JSON line (`{"bytes":n}` or `{"error":"…"}`), then the tarball's bytes.
 */
import { chmodSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import path from "node:path";
import type { DatabaseHandle } from "../db/index.ts";

/** Unix socket paths are limited to about 100 bytes. */
const MAX_SOCKET_PATH = 100;

export function backupSocketPath(pgliteDir: string): string {
  return `${path.resolve(pgliteDir)}.sock`;
}

/** Serves backups of an embedded database kept in a folder; null for PostgreSQL and in-memory ones. */
export async function serveBackups(
  database: DatabaseHandle,
  pgliteDir: string,
): Promise<{ close(): Promise<void> } | null> {
  const dump = database.dumpDataDir;
  if (database.kind !== "pglite" || !dump || pgliteDir.startsWith("memory://")) return null;
  const socketPath = backupSocketPath(pgliteDir);
  if (socketPath.length > MAX_SOCKET_PATH) {
    console.warn(`no backup socket: ${socketPath} is too long; stop the server to back it up`);
    return null;
  }
  // We hold the folder's lock: a socket file left here is a dead process's.
  rmSync(socketPath, { force: true });
  const server = createServer((socket) => {
    socket.on("error", () => undefined);
    socket.once("data", async () => {
      try {
        const tarball = Buffer.from(await (await dump()).arrayBuffer());
        socket.write(`${JSON.stringify({ bytes: tarball.length })}\n`);
        socket.end(tarball);
      } catch (error) {
        socket.end(`${JSON.stringify({ error: (error as Error).message })}\n`);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, resolve);
  });
  chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(socketPath, { force: true });
      }),
  };
}

/**
 * Asks the server that holds `pgliteDir` for a dump. null when no server listens (then the caller may
 * open the folder itself).
 */
export async function requestDump(pgliteDir: string): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(backupSocketPath(pgliteDir));
    const chunks: Buffer[] = [];
    let connected = false;
    socket.on("connect", () => {
      connected = true;
      socket.write("dump\n");
    });
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === "ENOENT" || error.code === "ECONNREFUSED")) resolve(null);
      else reject(new Error(`The running server's backup socket failed: ${error.message}`));
    });
    socket.on("end", () => {
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(10);
      if (newline < 0)
        return reject(new Error("The running server closed the backup socket without a dump."));
      const header = JSON.parse(all.subarray(0, newline).toString("utf8")) as {
        bytes?: number;
        error?: string;
      };
      if (header.error)
        return reject(new Error(`The running server could not dump its database: ${header.error}`));
      const body = all.subarray(newline + 1);
      if (body.length !== header.bytes)
        return reject(new Error("The running server's dump was cut short; try again."));
      resolve(body);
    });
  });
}
