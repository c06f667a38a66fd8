/**
 * Storage per project owner (SPEC §9): every file stored for a project — uploaded pages and versions,
 * comment attachments, inspect-change images — counts against its owner's plan (the free web plan:
 * 1 GB), measured over the rows that hold them. An upload past the limit is a typed 402 that stores and
 * changes nothing; deleting frees the bytes; concurrent writes never pass the limit together. The limit
 * is a gigabyte, so tests bring an owner near it by enlarging one stored version's recorded size.
 */
import { createHash } from "node:crypto";
import { BYTES_PER_GB, storageLimitMessage } from "@redline/shared";
import { and, count, eq, isNull } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assets, commentEntries, pages, users, versions } from "../../db/schema/index.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { routeIt } from "../../testing/route-it.ts";
import { setLimits, startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";
import { measureUnsizedUploads, meterStorage, StorageLimitError } from "./storage.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;
/** A different PNG per colour: its own bytes, hash and storage key. */
const png = (background: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .png()
    .toBuffer();
const GB = BYTES_PER_GB;
const anchor = (selector: string) => ({
  v: 1,
  querySelector: selector,
  selectors: { css: selector, xpath: "/html/body/h1", idPath: null },
  fingerprint: { tag: "h1", text: "Hello" },
  dot: null,
});
/** A comment on a point of the uploaded image every test here comments on. */
const newComment = (text: string, attachments: unknown[] = []) => ({
  dotPosition: { x: 0.25, y: 0.5 },
  deviceWidth: 1280,
  comment: text,
  attachments,
});
const storageRefusal = {
  code: "storage",
  message: storageLimitMessage(GB),
  limit: { kind: "storage", product: "web", limit: GB },
};

describe.each(drivers())("storage per owner (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver, config: { plansEnabled: true } });
  });
  afterAll(() => t.close());

  const db = () => t.ctx.database.db;
  /** A free owner with room for projects and pages (stored limits), so only storage limits them. */
  const freeOwner = async (name: string) => {
    const client = await signUpVerified(t.url, t.inbox!, email(name));
    await setLimits(t, client, { web: { projects: -1, pages: -1 }, browse: { projects: -1, pages: -1 } });
    return client;
  };
  const me = async (client: ApiClient) => (await client.get("/api/me")).body.data;
  const used = async (client: ApiClient) => (await me(client)).storage.web.used as number;
  const newProject = async (client: ApiClient) =>
    (await client.post("/api/projects", { type: "web", title: "Files" })).body.data.id as string;
  const uploadPage = (client: ApiClient, projectId: string, bytes: Buffer) =>
    client.upload(`/api/projects/${projectId}/uploads`, { name: "mock.png", type: "image/png", bytes });
  const pageCount = async (projectId: string) =>
    (await db().select({ n: count() }).from(pages).where(eq(pages.projectId, projectId)))[0]!.n;
  /** Brings the owner's usage to `target` bytes by enlarging the recorded size of one of their versions. */
  const fillTo = async (client: ApiClient, versionId: string, target: number) => {
    const [row] = await db()
      .select({ bytes: versions.fileBytes })
      .from(versions)
      .where(eq(versions.id, versionId));
    const current = await used(client);
    await db()
      .update(versions)
      .set({ fileBytes: row!.bytes! + target - current })
      .where(eq(versions.id, versionId));
    // Written outside a request: /api/me's kept sums move on as the database announces it (ADR 0013).
    await expect.poll(() => used(client)).toBe(target);
  };
  const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

  routeIt(driver)(
    "counts an uploaded page's bytes against its owner, each stored file once, and shows them with the limit",
    async () => {
      const owner = await freeOwner("counted");
      expect((await me(owner)).storage).toEqual({
        web: { used: 0, limit: GB },
        browse: { used: 0, limit: GB },
      });
      const projectId = await newProject(owner);
      const red = await png("#e5383b");
      const added = await uploadPage(owner, projectId, red);
      expect(added.status).toBe(201);
      expect(await used(owner)).toBe(red.length);
      // The same bytes again are one stored file: nothing more is used.
      expect((await uploadPage(owner, projectId, red)).status).toBe(201);
      expect(await used(owner)).toBe(red.length);
      const blue = await png("#1d4ed8");
      const version = await owner.upload(`/api/pages/${added.body.data.pageId}/versions`, {
        name: "v2.png",
        type: "image/png",
        bytes: blue,
      });
      expect(version.status).toBe(201);
      expect(await used(owner)).toBe(red.length + blue.length);
      // Another product's pool is untouched.
      expect((await me(owner)).storage.browse).toEqual({ used: 0, limit: GB });
    },
  );

  routeIt(driver)(
    "refuses any upload that would pass the owner's limit with a typed 402, storing and changing nothing",
    async () => {
      const owner = await freeOwner("full");
      const projectId = await newProject(owner);
      const red = await png("#e5383b");
      const added = (await uploadPage(owner, projectId, red)).body.data;
      const green = await png("#16a34a");
      await fillTo(owner, added.versionId, GB - green.length + 1);
      const pagesBefore = await pageCount(projectId);

      const page = await uploadPage(owner, projectId, green);
      expect(page.status).toBe(402);
      expect(page.body).toMatchObject(storageRefusal);
      const version = await owner.upload(`/api/pages/${added.pageId}/versions`, {
        name: "v2.png",
        type: "image/png",
        bytes: green,
      });
      expect(version.body).toMatchObject(storageRefusal);
      const attachment = await owner.upload(`/api/projects/${projectId}/attachments`, {
        name: "notes.png",
        type: "image/png",
        bytes: green,
      });
      expect(attachment.body).toMatchObject(storageRefusal);
      const image = await owner.upload(`/api/versions/${added.versionId}/changes/images`, {
        name: "hero.png",
        type: "image/png",
        bytes: green,
      });
      expect(image.body).toMatchObject(storageRefusal);

      // Nothing stayed: no page, version, file or asset row.
      const hash = sha(green);
      expect(await pageCount(projectId)).toBe(pagesBefore);
      expect(
        (await db().select({ n: count() }).from(versions).where(eq(versions.pageId, added.pageId)))[0]!.n,
      ).toBe(1);
      for (const key of [`uploads/${hash}.png`, `attachments/${projectId}/${hash}`, `assets/${hash}.png`])
        expect(await t.ctx.storage.size(key), key).toBeNull();
      expect(await db().select().from(assets).where(eq(assets.sha256, hash))).toEqual([]);
      expect(await used(owner)).toBe(GB - green.length + 1);

      // A file the owner already holds adds nothing, so it may be uploaded again.
      expect((await uploadPage(owner, projectId, red)).status).toBe(201);
    },
  );

  routeIt(driver)("frees the bytes when the rows holding them are deleted", async () => {
    const owner = await freeOwner("freed");
    const projectId = await newProject(owner);
    const ballast = (await uploadPage(owner, projectId, await png("#e5383b"))).body.data;
    const green = await png("#16a34a");
    await fillTo(owner, ballast.versionId, GB - 10);
    expect((await uploadPage(owner, projectId, green)).status).toBe(402);

    expect((await owner.delete(`/api/pages/${ballast.pageId}`)).status).toBe(200);
    expect(await used(owner)).toBe(0);
    const kept = await uploadPage(owner, projectId, green);
    expect(kept.status).toBe(201);
    expect(await used(owner)).toBe(green.length);

    // Deleting the project frees the rest.
    expect((await owner.delete(`/api/projects/${projectId}`)).status).toBe(200);
    expect(await used(owner)).toBe(0);
  });

  it("lets exactly one of several uploads at once take the last room", async () => {
    const owner = await freeOwner("racer");
    const projectId = await newProject(owner);
    const ballast = (await uploadPage(owner, projectId, await png("#e5383b"))).body.data;
    const files = await Promise.all(["#111111", "#222222", "#333333", "#444444"].map((c) => png(c)));
    const largest = Math.max(...files.map((file) => file.length));
    // Room for any one of them, never for two.
    await fillTo(owner, ballast.versionId, GB - largest);
    const pagesBefore = await pageCount(projectId);
    const answers = await Promise.all(files.map((bytes) => uploadPage(owner, projectId, bytes)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 402, 402, 402]);
    expect(await pageCount(projectId)).toBe(pagesBefore + 1);
    expect(await used(owner)).toBeLessThanOrEqual(GB);
  });

  it("keeps two writes at once from passing the limit together: the second measures after the first commits", async () => {
    const owner = await freeOwner("locked");
    const projectId = await newProject(owner);
    const ballast = (await uploadPage(owner, projectId, await png("#e5383b"))).body.data;
    await fillTo(owner, ballast.versionId, GB - 1000);
    let number = 100;
    /** A version holding a file of `bytes`, recorded the way uploads are: metered in its transaction. */
    const write = (bytes: number, beforeCommit: () => Promise<void> = async () => undefined) =>
      db().transaction(async (tx) => {
        const storage = await meterStorage(tx, projectId, true);
        await tx.insert(versions).values({
          id: `locked-${++number}`,
          pageId: ballast.pageId,
          projectId,
          number,
          title: "Raced",
          kind: "image",
          status: "ready",
          fileKey: `uploads/raced-${number}.png`,
          fileBytes: bytes,
        });
        await storage.check();
        await beforeCommit();
      });
    // The first has measured, written and checked, and waits to commit while the second starts.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let checked!: () => void;
    const firstChecked = new Promise<void>((resolve) => {
      checked = resolve;
    });
    const first = write(600, async () => {
      checked();
      await held;
    });
    await firstChecked;
    const second = write(600);
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    const [a, b] = await Promise.allSettled([first, second]);
    expect(a.status).toBe("fulfilled");
    expect(b.status).toBe("rejected");
    expect((b as PromiseRejectedResult).reason).toBeInstanceOf(StorageLimitError);
    expect(await used(owner)).toBe(GB - 400);
  });

  it("meters attachments where a comment takes them up, at their stored size, one of two at once", async () => {
    const owner = await freeOwner("attacher");
    const projectId = await newProject(owner);
    const red = await png("#e5383b");
    const ballast = (await uploadPage(owner, projectId, red)).body.data;
    const upload = async (bytes: Buffer) =>
      (
        await owner.upload(`/api/projects/${projectId}/attachments`, {
          name: "spec.bin",
          type: "application/octet-stream",
          bytes,
        })
      ).body.data;
    const first = await upload(Buffer.alloc(3000, 1));
    const second = await upload(Buffer.alloc(3000, 2));
    // Uploaded, not yet attached: they hold nothing yet.
    const before = await used(owner);
    expect(before).toBe(red.length);

    // The client's word on the size is not taken, and a path of another project is refused.
    const created = await owner.post(
      `/api/versions/${ballast.versionId}/comments`,
      newComment("See file", [{ ...first, size: 1 }]),
    );
    expect(created.status).toBe(201);
    expect(created.body.data.thread[0].attachments[0].size).toBe(3000);
    expect(await used(owner)).toBe(before + 3000);
    const foreign = await owner.post(
      `/api/versions/${ballast.versionId}/comments`,
      newComment("Elsewhere", [{ ...first, path: `attachments/other/${first.path.split("/").pop()}` }]),
    );
    expect(foreign.status).toBe(400);

    // Room for one more 3000-byte file, not two: two comments at once, exactly one is kept.
    const third = await upload(Buffer.alloc(3000, 3));
    await fillTo(owner, ballast.versionId, GB - 3000 - 1500);
    const answers = await Promise.all(
      [second, third].map((attachment) =>
        owner.post(`/api/versions/${ballast.versionId}/comments`, newComment("Race", [attachment])),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 402]);
    expect(answers.find((answer) => answer.status === 402)!.body).toMatchObject(storageRefusal);
    const entries = await db()
      .select({ n: count() })
      .from(commentEntries)
      .where(eq(commentEntries.body, "Race"));
    expect(entries[0]!.n).toBe(1);
    expect(await used(owner)).toBe(GB - 1500);
  });

  routeIt(driver)("meters inspect-change images where a save takes them up", async () => {
    const owner = await freeOwner("inspector");
    const projectId = await newProject(owner);
    const ballast = (await uploadPage(owner, projectId, await png("#e5383b"))).body.data;
    const hero = await png("#9333ea");
    const uploaded = await owner.upload(`/api/versions/${ballast.versionId}/changes/images`, {
      name: "hero.png",
      type: "image/png",
      bytes: hero,
    });
    expect(uploaded.status).toBe(201);
    const change = {
      changeType: "image",
      anchor: anchor("img.hero"),
      deviceWidth: 1280,
      value: uploaded.body.data.path,
      imageDimensions: uploaded.body.data.imageDimensions,
    };
    await fillTo(owner, ballast.versionId, GB - hero.length + 1);
    const refused = await owner.post(`/api/versions/${ballast.versionId}/changes`, { changes: [change] });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject(storageRefusal);
    expect((await owner.get(`/api/versions/${ballast.versionId}/changes`)).body.data).toEqual([]);

    await fillTo(owner, ballast.versionId, GB - hero.length);
    expect(
      (await owner.post(`/api/versions/${ballast.versionId}/changes`, { changes: [change] })).status,
    ).toBe(200);
    expect(await used(owner)).toBe(GB);
  });

  routeIt(driver)("moves with the project when its ownership is transferred", async () => {
    const owner = await freeOwner("giver");
    const taker = await freeOwner("taker");
    const takerEmail = (await me(taker)).email as string;
    const projectId = await newProject(owner);
    const red = await png("#e5383b");
    await uploadPage(owner, projectId, red);
    await owner.post(`/api/projects/${projectId}/members`, { email: takerEmail, access: "edit" });
    const to = (await me(taker)).uid as string;
    expect((await owner.post(`/api/projects/${projectId}/transfer`, { to })).status).toBe(200);
    expect(await used(owner)).toBe(0);
    expect(await used(taker)).toBe(red.length);
  });

  it("measures versions uploaded before sizes were recorded, once, at start-up", async () => {
    const owner = await freeOwner("legacy");
    const projectId = await newProject(owner);
    const red = await png("#e5383b");
    const { versionId } = (await uploadPage(owner, projectId, red)).body.data;
    await db().update(versions).set({ fileBytes: null }).where(eq(versions.id, versionId));
    // Written outside a request: /api/me's cached figures follow once the database's announcement of the
    // changed user row reaches this process (ADR 0013), a moment after the write.
    await expect.poll(() => used(owner)).toBe(0);
    expect(await measureUnsizedUploads(t.ctx)).toBeGreaterThanOrEqual(1);
    await expect.poll(() => used(owner)).toBe(red.length);
    const unsized = await db()
      .select({ n: count() })
      .from(versions)
      .where(and(eq(versions.id, versionId), isNull(versions.fileBytes)));
    expect(unsized[0]!.n).toBe(0);
  });

  routeIt(driver)("follows the owner's plan: Partner plan A holds 25 GB", async () => {
    const owner = await freeOwner("partner");
    const uid = (await me(owner)).uid as string;
    await db().update(users).set({ partnerPlan: "A" }).where(eq(users.id, uid));
    expect((await me(owner)).storage.web.limit).toBe(25 * GB);
  });
});

describe("storage with plans switched off", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver: "pglite", config: { plansEnabled: false } });
  });
  afterAll(() => t.close());

  it("still counts what is used, and lets every upload through", async () => {
    const owner = await signUpVerified(t.url, t.inbox!, email("unlimited"));
    const projectId = (await owner.post("/api/projects", { type: "web", title: "Files" })).body.data.id;
    const red = await png("#e5383b");
    const { versionId } = (
      await owner.upload(`/api/projects/${projectId}/uploads`, {
        name: "a.png",
        type: "image/png",
        bytes: red,
      })
    ).body.data;
    expect((await owner.get("/api/me")).body.data.storage.web).toEqual({ used: red.length, limit: -1 });
    await t.ctx.database.db
      .update(versions)
      .set({ fileBytes: 5 * GB })
      .where(eq(versions.id, versionId));
    const green = await png("#16a34a");
    expect(
      (
        await owner.upload(`/api/projects/${projectId}/uploads`, {
          name: "b.png",
          type: "image/png",
          bytes: green,
        })
      ).status,
    ).toBe(201);
  });
});
