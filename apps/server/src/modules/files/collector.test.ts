import { createHash } from "node:crypto";
import { utimes } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assets, versionAssets } from "../../db/schema/index.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { setLimits, startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";
import { collectFiles } from "./collector.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;
const png = (background: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .png()
    .toBuffer();
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe.each(drivers())("the file collector (%s)", (driver) => {
  let t: TestApp;
  let owner: ApiClient;

  const stored = async () => {
    const keys: string[] = [];
    for await (const file of t.ctx.storage.list()) keys.push(file.key);
    return keys.sort();
  };
  /** An asset as a capture stores it, used by the given versions. */
  const asset = async (bytes: Buffer, versionIds: string[]) => {
    const hash = sha(bytes);
    await t.ctx.storage.putContentAddressed(`assets/${hash}.bin`, bytes, hash);
    const { db } = t.ctx.database;
    await db
      .insert(assets)
      .values({ sha256: hash, contentType: "application/octet-stream", ext: "bin", size: bytes.length });
    if (versionIds.length > 0)
      await db.insert(versionAssets).values(versionIds.map((versionId) => ({ versionId, sha256: hash })));
    return `assets/${hash}.bin`;
  };
  const upload = async (projectId: string, bytes: Buffer) =>
    (await owner.upload(`/api/projects/${projectId}/uploads`, { name: "shot.png", type: "image/png", bytes }))
      .body.data as { pageId: string; versionId: string };

  beforeAll(async () => {
    t = await startTestApp({
      driver,
      config: { fileGcGraceSeconds: 3600, fileGcIntervalSeconds: 3600, plansEnabled: true },
    });
    owner = await signUpVerified(t.url, t.inbox!, email("collector"));
    await setLimits(t, owner, { web: { projects: -1, pages: 5 }, browse: { projects: -1, pages: 5 } });
  });
  afterAll(() => t.close());

  it("frees a deleted page's files after the grace period, and keeps what another version still uses", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Files" })).body.data.id;
    const shared = await png("#112233");
    const [a, b] = [await upload(projectId, shared), await upload(projectId, shared)];
    const uploadKey = `uploads/${sha(shared)}.png`;
    const sharedAsset = await asset(Buffer.from("shared asset"), [a.versionId, b.versionId]);
    const onlyA = await asset(Buffer.from("asset of page A alone"), [a.versionId]);
    expect(await stored()).toEqual(expect.arrayContaining([uploadKey, sharedAsset, onlyA]));

    expect((await owner.delete(`/api/pages/${a.pageId}`)).status).toBe(200);
    // Within the grace period nothing goes.
    expect((await collectFiles(t.ctx, 3600_000)).removed).toEqual([]);
    const later = Date.now() + 3600_000 + 1000;
    const { removed } = await collectFiles(t.ctx, 3600_000, later);
    expect(removed).toContain(onlyA);
    const left = await stored();
    expect(left).not.toContain(onlyA);
    expect(left).toEqual(expect.arrayContaining([uploadKey, sharedAsset]));
    const rows = await t.ctx.database.db
      .select()
      .from(assets)
      .where(eq(assets.sha256, onlyA.slice(7, 71)));
    expect(rows).toEqual([]);
    // Page B still shows its image.
    const view = (await owner.get(`/api/versions/${b.versionId}/view`)).body.data;
    expect((await fetch(view.contentUrl)).status).toBe(200);
  });

  it("removes what a crash or an abandoned upload left once old enough, never a new file", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Leftovers" })).body.data.id;
    const attachment = (
      await owner.upload(`/api/projects/${projectId}/attachments`, {
        name: "notes.txt",
        type: "text/plain",
        bytes: Buffer.from(`never attached ${Date.now()}`),
      })
    ).body.data.path as string;
    const root = t.ctx.config.filesDir;
    await t.ctx.storage.put("snapshots/cut-short.html.0123456789ab.tmp", Buffer.from(""));
    const old = new Date(Date.now() - 2 * 3600_000);
    for (const key of [attachment, "snapshots/cut-short.html.0123456789ab.tmp"])
      await utimes(path.join(root, ...key.split("/")), old, old);
    await t.ctx.storage.put("uploads/fresh.bin", Buffer.from("just written"));

    const { removed } = await collectFiles(t.ctx, 3600_000);
    expect(removed).toEqual(
      expect.arrayContaining([attachment, "snapshots/cut-short.html.0123456789ab.tmp"]),
    );
    expect(await stored()).toContain("uploads/fresh.bin");
  });

  it("keeps a bug report's screenshot, replay and thread files while its ticket holds them", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Bugs", type: "browse" })).body.data.id;
    const keys = {
      screenshot: `tickets/${projectId}/${"e".repeat(64)}.png`,
      replay: `tickets/${projectId}/${"f".repeat(64)}.json`,
      attachment: `attachments/${projectId}/${"0".repeat(64)}`,
    };
    for (const key of Object.values(keys)) await t.ctx.storage.put(key, Buffer.from(key));
    const { db } = t.ctx.database;
    await db.execute(
      sql`insert into tickets (id, project_id, number, sort_key, intake, title, screenshot_key, replay_key)
          values (${`tk-${projectId}`}, ${projectId}, 1, 'a0', 'triage', 'Report', ${keys.screenshot}, ${keys.replay})`,
    );
    await db.execute(
      sql`insert into ticket_entries (id, ticket_id, body, attachments) values (${`te-${projectId}`}, ${`tk-${projectId}`}, 'Look',
          ${JSON.stringify([{ name: "a.txt", size: 1, type: "text/plain", path: keys.attachment }])}::jsonb)`,
    );
    const later = Date.now() + 3600_000 + 1000;
    expect((await collectFiles(t.ctx, 3600_000, later)).removed).not.toEqual(
      expect.arrayContaining([keys.screenshot]),
    );
    expect(await stored()).toEqual(expect.arrayContaining(Object.values(keys)));
    await db.execute(sql`delete from tickets where id = ${`tk-${projectId}`}`);
    const { removed } = await collectFiles(t.ctx, 3600_000, later);
    expect(removed).toEqual(expect.arrayContaining(Object.values(keys)));
  });

  it("stores nothing for an upload the page limit refuses", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Full" })).body.data.id;
    for (let i = 0; i < 5; i++) await upload(projectId, await png(`#0000${(16 + i).toString(16)}`));
    const before = await stored();
    const refused = await owner.upload(`/api/projects/${projectId}/uploads`, {
      name: "one-too-many.png",
      type: "image/png",
      bytes: await png("#abcdef"),
    });
    expect(refused.status).toBe(402);
    expect(await stored()).toEqual(before);
  });
});

describe("the file collector as a durable job", () => {
  it("runs through the queue on its interval and removes an old orphan", async () => {
    const t = await startTestApp({
      driver: "pglite",
      smtp: false,
      config: { fileGcGraceSeconds: 0, fileGcIntervalSeconds: 1 },
    });
    try {
      await t.ctx.storage.put("uploads/orphan.bin", Buffer.from("nobody's"));
      const has = async () => {
        for await (const file of t.ctx.storage.list()) if (file.key === "uploads/orphan.bin") return true;
        return false;
      };
      for (let i = 0; i < 60 && (await has()); i++) await sleep(250);
      expect(await has()).toBe(false);
    } finally {
      await t.close();
    }
  }, 60_000); // starts an app of its own: slow on a loaded machine
});
