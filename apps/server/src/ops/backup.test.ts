import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import S3rver from "s3rver";
import sharp from "sharp";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comments } from "../db/schema/index.ts";
import { loadConfig } from "../env.ts";
import { createS3Storage } from "../lib/storage/s3-storage.ts";
import { createLocalStorage } from "../lib/storage/storage.ts";
import { ApiClient } from "../testing/http-client.ts";
import { signUpPerson } from "../testing/people.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";
import { createTestDatabase, drivers } from "../testing/test-db.ts";
import { backup } from "./backup.ts";
import { emptyPostgres } from "./empty-postgres.ts";
import { latestLevel } from "./migrations.ts";
import { RestoreRefused, restore } from "./restore.ts";

const PASSWORD = "correct horse battery";

/** A PNG whose colour encodes n, so every upload is a file of its own. */
const png = (n: number) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: n, g: 90, b: 200 - n } } })
    .png()
    .toBuffer();

const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

/** An S3-protocol server (s3rver) with one bucket per instance, for the PostgreSQL run. */
async function startS3(): Promise<{
  options(bucket: string): NonNullable<TestApp["ctx"]["config"]["s3"]>;
  stop(): Promise<void>;
}> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "redline-backup-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: dir,
    configureBuckets: [
      { name: "source", configs: [] },
      { name: "restored", configs: [] },
    ],
  });
  const { port } = (await server.run()) as AddressInfo;
  return {
    options: (bucket) => ({
      bucket,
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    }),
    async stop() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe.each(drivers())("backup and restore (%s)", (driver) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  let s3: Awaited<ReturnType<typeof startS3>> | null = null;
  let source: TestApp;
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), "redline-backup-"));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    if (driver === "postgres") {
      s3 = await startS3();
      cleanups.push(() => s3!.stop());
      source = await startTestApp({ driver, config: { s3: s3.options("source") } });
    } else {
      // The embedded database in a folder, as in production (tests otherwise keep it in memory).
      const pgliteDir = path.join(folder, "source-pglite");
      const seed = new PGlite(pgliteDir, {
        loadDataDir: (await createTestDatabase("pglite")).pgliteSnapshot,
      });
      await seed.close();
      source = await startTestApp({ driver, config: { pgliteDir, pgliteSnapshot: undefined } });
    }
    cleanups.push(() => source.close());
  }, 60_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }, 60_000);

  it("backs up while comments are written, and a fresh instance restored from it serves every project, comment, ticket and file", async () => {
    const owner = await signUpPerson(source, "owner", "Olivia Owner");
    const api = owner.client;

    // A review project: two uploaded pages, comments, one with an attachment.
    const projectId = (await api.post("/api/projects", { title: "Launch site" })).body.data.id as string;
    const images = [await png(1), await png(2)];
    const versionIds: string[] = [];
    for (const [index, bytes] of images.entries()) {
      const upload = await api.upload(`/api/projects/${projectId}/uploads`, {
        name: `page-${index}.png`,
        type: "image/png",
        bytes,
      });
      expect(upload.status).toBe(201);
      versionIds.push(upload.body.data.versionId);
    }
    const notes = Buffer.from("spec notes: the hero is 20 px too low");
    const attachment = (
      await api.upload(`/api/projects/${projectId}/attachments`, {
        name: "notes.txt",
        type: "text/plain",
        bytes: notes,
      })
    ).body.data;
    const pinned = { dotPosition: { x: 0.5, y: 0.5 }, deviceWidth: 1280 };
    const withFile = await api.post(`/api/versions/${versionIds[0]}/comments`, {
      ...pinned,
      comment: "See the notes",
      attachments: [attachment],
    });
    expect(withFile.status).toBe(201);

    // A bug-tracking project: a ticket whose reply carries a file.
    const boardId = (await api.post("/api/projects", { title: "Shop bugs", type: "browse" })).body.data
      .id as string;
    const list = (await api.post(`/api/projects/${boardId}/lists`, { title: "To do" })).body.data;
    const ticket = (
      await api.post(`/api/projects/${boardId}/tickets`, { listId: list.id, title: "Cart total wrong" })
    ).body.data;
    const log = Buffer.from(`console log of ${ticket.id}`);
    const logFile = (
      await api.upload(`/api/projects/${boardId}/attachments`, {
        name: "console.log",
        type: "text/plain",
        bytes: log,
      })
    ).body.data;
    expect(
      (
        await api.post(`/api/tickets/${ticket.id}/entries`, {
          comment: "Log attached",
          attachments: [logFile],
        })
      ).status,
    ).toBe(201);

    // A writer keeps commenting while the backup runs.
    const acknowledged: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const created = await api.post(`/api/versions/${versionIds[1]}/comments`, {
          ...pinned,
          comment: `live ${n}`,
        });
        expect(created.status).toBe(201);
        acknowledged.push(created.body.data.id);
        // About 30 comments a second: busy for a review tool, and it leaves the two cores to the backup.
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    })();
    while (acknowledged.length < 5) await new Promise((resolve) => setTimeout(resolve, 20));
    const beforeBackup = [...acknowledged];
    const { file, manifest } = await backup({
      config: source.ctx.config,
      storage: source.ctx.storage,
      target: path.join(folder, "archives"),
    });
    const duringBackup = acknowledged.length - beforeBackup.length;
    writing = false;
    await writer;
    expect(file).toMatch(/redline-backup-\d{8}T\d{6}Z\.tar\.gz$/);
    expect(manifest).toMatchObject({
      format: "redline-backup",
      version: 1,
      database: { kind: driver, level: latestLevel() },
      files: { missing: [] },
    });
    // Two pages (file, thumbnail), the project's thumbnail, two attachments.
    expect(manifest.files.count).toBeGreaterThanOrEqual(5);
    expect(manifest.counts.comments).toBeGreaterThanOrEqual(1 + beforeBackup.length);
    expect(duringBackup).toBeGreaterThan(0); // the backup really ran under writes

    // Restoring over a database that holds data is refused, and changes nothing.
    const occupied = await occupiedTarget();
    await expect(restore({ ...occupied, archive: file })).rejects.toThrow(
      driver === "pglite" ? /already a database .* --force/ : /not empty.*--force/,
    );
    await expect(
      restore({ ...occupied, archive: path.join(folder, "nothing.tar.gz") }),
    ).rejects.toBeInstanceOf(RestoreRefused);

    // A fresh instance: an empty database and an empty file store.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-restored-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const fresh = driver === "postgres" ? await emptyPostgres() : null;
    if (fresh) cleanups.push(() => fresh.drop());
    const config = {
      ...loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir }),
      databaseUrl: fresh?.url,
      s3: s3?.options("restored"),
    };
    const storage = s3 ? createS3Storage(s3.options("restored")) : createLocalStorage(config.filesDir);
    const restored = await restore({ config, storage, archive: file });
    expect(restored.files).toBe(manifest.files.count);
    // Once restored, the instance is not empty: again only with --force, which replaces it.
    await expect(restore({ config, storage, archive: file })).rejects.toBeInstanceOf(RestoreRefused);
    expect((await restore({ config, storage, archive: file, force: true })).files).toBe(manifest.files.count);
    if (driver === "pglite")
      expect(
        (await readdir(dataDir)).filter((name) => name.startsWith("pglite.before-restore-")),
      ).toHaveLength(1);

    const target = await startTestApp({
      driver,
      config: {
        databaseUrl: fresh?.url,
        pgliteDir: config.pgliteDir,
        pgliteSnapshot: undefined,
        filesDir: config.filesDir,
        s3: config.s3,
        // The backup's signing secret, which the restore put into DATA_DIR.
        authSecret: loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir }).authSecret,
      },
    });
    cleanups.push(() => target.close());
    expect(target.ctx.config.authSecret).toBe(source.ctx.config.authSecret);

    // Exactly the snapshot: every comment acknowledged before the backup, none beyond its count.
    const rows = await target.ctx.database.db.$count(comments);
    expect(rows).toBe(manifest.counts.comments);
    const reader = new ApiClient(target.url);
    expect(
      (await reader.post("/api/auth/sign-in/email", { email: owner.address, password: PASSWORD })).status,
    ).toBe(200);
    const titles = (await reader.get("/api/projects")).body.data.map((p: { title: string }) => p.title);
    expect(titles).toEqual(expect.arrayContaining(["Launch site", "Shop bugs"]));
    const live = (await reader.get(`/api/versions/${versionIds[1]}/comments`)).body.data.map(
      (c: { id: string }) => c.id,
    );
    expect(live).toEqual(expect.arrayContaining(beforeBackup));

    // Every file, downloaded through the API, byte for byte.
    for (const [index, versionId] of versionIds.entries()) {
      const view = (await reader.get(`/api/versions/${versionId}/view`)).body.data;
      expect(await bytesOf(await fetch(view.contentUrl))).toEqual(images[index]);
      expect((await fetch(target.url + view.page.thumbnail)).status).toBe(200);
    }
    const [first] = (await reader.get(`/api/versions/${versionIds[0]}/comments`)).body.data;
    expect(first.thread[0].attachments).toEqual([attachment]);
    const download = (sha: string, project: string) =>
      fetch(`${target.url}/api/projects/${project}/attachments/${sha}`, {
        headers: { cookie: reader.cookieHeader() },
      });
    expect(await bytesOf(await download(attachment.path.split("/").pop(), projectId))).toEqual(notes);
    const restoredTicket = (await reader.get(`/api/tickets/${ticket.id}`)).body.data;
    expect(restoredTicket.title).toBe("Cart total wrong");
    expect(restoredTicket.thread[1].attachments).toEqual([logFile]);
    expect(await bytesOf(await download(logFile.path.split("/").pop(), boardId))).toEqual(log);
  }, 180_000);

  /** A target that already holds a database: PostgreSQL's source itself, or a migrated PGlite folder. */
  async function occupiedTarget() {
    if (driver === "postgres") return { config: source.ctx.config, storage: source.ctx.storage };
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-occupied-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir });
    const seed = new PGlite(config.pgliteDir, {
      loadDataDir: (await createTestDatabase("pglite")).pgliteSnapshot,
    });
    await seed.close();
    return { config, storage: createLocalStorage(config.filesDir) };
  }
});

describe("backup and restore of an instance no server holds", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), "redline-refused-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /** An archive with this manifest (and nothing else), restored into an empty embedded instance. */
  const restoreWith = async (manifest: unknown) => {
    const staging = await mkdtemp(path.join(folder, "archive-"));
    await writeFile(path.join(staging, "manifest.json"), JSON.stringify(manifest));
    const archive = `${staging}.tar.gz`;
    await tar.c({ gzip: true, cwd: staging, file: archive }, ["manifest.json"]);
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: path.join(staging, "instance") });
    return restore({ config, storage: createLocalStorage(config.filesDir), archive });
  };
  const valid = {
    format: "redline-backup",
    version: 1,
    createdAt: new Date().toISOString(),
    database: { kind: "pglite", level: latestLevel() },
    counts: {},
    files: { count: 0, bytes: 0, missing: [] },
  };

  it("backs up an embedded database no server holds (taking its lock meanwhile)", async () => {
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: path.join(folder, "stopped") });
    const seed = new PGlite(config.pgliteDir, {
      loadDataDir: (await createTestDatabase("pglite")).pgliteSnapshot,
    });
    await seed.close();
    const { file, manifest } = await backup({
      config,
      storage: createLocalStorage(config.filesDir),
      target: path.join(folder, "stopped.tar.gz"),
    });
    expect(file).toBe(path.join(folder, "stopped.tar.gz"));
    expect(manifest.database).toEqual({ kind: "pglite", level: latestLevel() });
    expect(manifest.counts).toMatchObject({ users: 0, projects: 0 });
    // PGlite opens, migrates and copies in this worker's own thread: a loaded machine takes its time.
  }, 120_000);

  it("refuses a backup from a newer schema than this code", async () => {
    const newer = { count: latestLevel().count + 1, tag: "9999_future" };
    await expect(restoreWith({ ...valid, database: { kind: "pglite", level: newer } })).rejects.toThrow(
      `This backup's database is at migration 9999_future, newer than this Redline's schema (${latestLevel().tag}). Upgrade Redline to the release that made the backup (or later), then restore.`,
    );
  });

  it("refuses a newer backup format, another kind of database, and what is no backup at all", async () => {
    await expect(restoreWith({ ...valid, version: 2 })).rejects.toThrow(
      "This backup is in format 2, newer than this Redline reads (1). Upgrade Redline, then restore.",
    );
    await expect(
      restoreWith({ ...valid, database: { kind: "postgres", level: latestLevel() } }),
    ).rejects.toThrow("This backup is of a PostgreSQL database: restore it with DATABASE_URL set.");
    await expect(restoreWith({ hello: "world" })).rejects.toThrow(
      "This archive is not a Redline backup (it has no Redline manifest).",
    );
    const junk = path.join(folder, "junk.tar.gz");
    await writeFile(junk, "not an archive");
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: path.join(folder, "junk-instance") });
    await expect(
      restore({ config, storage: createLocalStorage(config.filesDir), archive: junk }),
    ).rejects.toThrow(RestoreRefused);
  });
});
