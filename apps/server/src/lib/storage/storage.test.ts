import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3Storage } from "./s3-storage.ts";
import { createLocalStorage, type Storage } from "./storage.ts";

const read = async (storage: Storage, key: string) => {
  const file = await storage.get(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(Buffer.from(chunk));
  return { size: file.size, bytes: Buffer.concat(chunks) };
};

/** Both providers: a local S3-protocol server (s3rver) stands in for the real service. */
const providers: Record<string, () => Promise<{ storage: Storage; stop(): Promise<void> }>> = {
  "local disk": async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "redline-storage-"));
    return { storage: createLocalStorage(dir), stop: () => rm(dir, { recursive: true, force: true }) };
  },
  s3: async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "redline-s3-"));
    const server = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: dir,
      configureBuckets: [{ name: "redline", configs: [] }],
    });
    const { port } = (await server.run()) as AddressInfo;
    const storage = createS3Storage({
      bucket: "redline",
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    return {
      storage,
      async stop() {
        await server.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};

describe.each(Object.keys(providers))("storage provider: %s", (name) => {
  let storage: Storage;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, stop } = await providers[name]!());
  });
  afterAll(() => stop());

  it("stores, reads back and deletes bytes by key", async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 10, 13]);
    await storage.put("assets/abc123.bin", bytes);
    expect(await read(storage, "assets/abc123.bin")).toEqual({ size: bytes.length, bytes });
    await storage.put("assets/abc123.bin", Buffer.from("replaced"));
    expect((await read(storage, "assets/abc123.bin"))?.bytes.toString()).toBe("replaced");
    await storage.delete("assets/abc123.bin");
    expect(await storage.get("assets/abc123.bin")).toBeNull();
  });

  it("lists every stored file with when it was written", async () => {
    await storage.put("listed/one.bin", Buffer.from("1"));
    await storage.put("listed/deeper/two.bin", Buffer.from("2"));
    const listed = [];
    for await (const file of storage.list()) listed.push(file);
    const mine = listed.filter((file) => file.key.startsWith("listed/"));
    expect(mine.map((file) => file.key).sort()).toEqual(["listed/deeper/two.bin", "listed/one.bin"]);
    for (const file of mine) expect(Math.abs(file.modifiedAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("writes a content-addressed file again when what is stored does not hash to its name", async () => {
    const bytes = Buffer.from("content-addressed bytes");
    const hash = createHash("sha256").update(bytes).digest("hex");
    const key = `assets/${hash}.bin`;
    await storage.put(key, Buffer.alloc(0)); // torn, as a crash mid-write once left it
    await storage.putContentAddressed(key, bytes, hash);
    expect((await read(storage, key))?.bytes).toEqual(bytes);
    await storage.putContentAddressed(key, bytes, hash);
    expect((await read(storage, key))?.bytes).toEqual(bytes);
  });

  it("tells a stored file's size, and null for missing keys", async () => {
    await storage.put("sized/file.bin", Buffer.alloc(1234, 7));
    expect(await storage.size("sized/file.bin")).toBe(1234);
    expect(await storage.size("sized/missing.bin")).toBeNull();
    expect(await storage.size("../secret")).toBeNull();
  });

  it("answers null for missing keys and refuses keys that escape", async () => {
    expect(await storage.get("nothing/here.png")).toBeNull();
    expect(await storage.get("../secret")).toBeNull();
    await expect(storage.put("a/../../b", Buffer.from("x"))).rejects.toThrow(/Invalid storage key/);
  });
});

describe("local disk writes", () => {
  it("replaces a file whole: concurrent writers leave one complete version and no temporary files", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "redline-atomic-"));
    try {
      const storage = createLocalStorage(dir);
      const versions = Array.from({ length: 8 }, (_, i) => Buffer.alloc(256 * 1024, 65 + i));
      await Promise.all(versions.map((bytes) => storage.put("snapshots/v.html", bytes)));
      const stored = await read(storage, "snapshots/v.html");
      expect(versions.some((bytes) => stored?.bytes.equals(bytes))).toBe(true);
      expect(await readdir(path.join(dir, "snapshots"))).toEqual(["v.html"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
