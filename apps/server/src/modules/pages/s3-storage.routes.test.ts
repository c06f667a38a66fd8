import { readdir } from "node:fs/promises";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpVerified } from "../../testing/http-client.ts";
import { startS3Server } from "../../testing/s3-server.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { collectFiles } from "../files/collector.ts";

describe("files on S3 when S3 is configured", () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await startTestApp({ config: { s3: s3.options() } });
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  it("stores uploads and thumbnails in the bucket and serves them back", async () => {
    const owner = await signUpVerified(t.url, t.inbox!, `s3-${Date.now()}@example.com`);
    const projectId = (await owner.post("/api/projects", { title: "S3" })).body.data.id;
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#3a86ff" } })
      .png()
      .toBuffer();
    const { versionId } = (
      await owner.upload(`/api/projects/${projectId}/uploads`, {
        name: "s3.png",
        type: "image/png",
        bytes: png,
      })
    ).body.data;
    const view = (await owner.get(`/api/versions/${versionId}/view`)).body.data;
    expect(Buffer.from(await (await fetch(view.contentUrl)).arrayBuffer())).toEqual(png);
    expect((await fetch(t.url + view.page.thumbnail)).status).toBe(200);

    const stored = await readdir(s3.directory, { recursive: true });
    expect(stored.some((name) => String(name).includes("uploads"))).toBe(true);
    const localFiles = await readdir(t.ctx.config.filesDir, { recursive: true }).catch(() => []);
    expect(localFiles).toEqual([]);
  });

  it("lets the file collector remove an unreferenced object from the bucket and keep a referenced one", async () => {
    const owner = await signUpVerified(t.url, t.inbox!, `s3-gc-${Date.now()}@example.com`);
    const projectId = (await owner.post("/api/projects", { title: "S3 collector" })).body.data.id;
    const png = await sharp({ create: { width: 120, height: 80, channels: 3, background: "#8338ec" } })
      .png()
      .toBuffer();
    const { versionId } = (
      await owner.upload(`/api/projects/${projectId}/uploads`, {
        name: "kept.png",
        type: "image/png",
        bytes: png,
      })
    ).body.data;
    await t.ctx.storage.put("uploads/abandoned.bin", Buffer.from("nobody refers to me"));
    const keys = async () => {
      const found: string[] = [];
      for await (const file of t.ctx.storage.list()) found.push(file.key);
      return found;
    };
    expect(await keys()).toContain("uploads/abandoned.bin");
    // Past the grace period for everything stored so far.
    const { removed } = await collectFiles(t.ctx, 60_000, Date.now() + 120_000);
    expect(removed).toContain("uploads/abandoned.bin");
    expect(await keys()).not.toContain("uploads/abandoned.bin");
    const view = (await owner.get(`/api/versions/${versionId}/view`)).body.data;
    expect(Buffer.from(await (await fetch(view.contentUrl)).arrayBuffer())).toEqual(png);
  });
});
