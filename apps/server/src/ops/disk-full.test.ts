/**
 * The disk full (issue #35): the files folder on a tiny tmpfs. An upload that does not fit is answered 507
 * with a sentence for people, writes no row and leaves no partial file; once there is room again the same
 * upload is taken. Needs the right to mount (root in a container that allows it); skipped otherwise.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpVerified } from "../testing/http-client.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = path.join(os.tmpdir(), `redline-mount-probe-${process.pid}`);
  try {
    execFileSync("mkdir", ["-p", probe]);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], { stdio: "ignore" });
    execFileSync("umount", [probe]);
    return true;
  } catch {
    return false;
  } finally {
    execFileSync("rm", ["-rf", probe]);
  }
}

/** Every file under a folder, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe.skipIf(!canMount())("uploads while the disk is full", () => {
  let dir: string;
  let filesDir: string;
  let t: TestApp;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "redline-disk-full-"));
    filesDir = path.join(dir, "files");
    execFileSync("mkdir", ["-p", filesDir]);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", filesDir]);
    t = await startTestApp({ allowServerErrors: true, config: { filesDir } });
  });
  afterAll(async () => {
    await t?.close();
    execFileSync("umount", [filesDir]);
    await rm(dir, { recursive: true, force: true });
  });

  it("answers 507 for people, keeps nothing of the upload, and takes it once there is room", async () => {
    const owner = await signUpVerified(t.url, t.inbox!, `disk-full-${Date.now()}@example.com`);
    const projectId = (await owner.post("/api/projects", { title: "Full disk" })).body.data.id as string;
    // Noise does not compress: a PNG of about 480 kB, more than the 256 kB the folder holds.
    const noise = randomBytes(400 * 400 * 3);
    const bytes = await sharp(noise, { raw: { width: 400, height: 400, channels: 3 } })
      .png()
      .toBuffer();
    expect(bytes.length).toBeGreaterThan(256 * 1024);
    const before = await filesUnder(filesDir);
    const send = () =>
      owner.upload(`/api/projects/${projectId}/uploads`, { name: "big.png", type: "image/png", bytes });

    const refused = await send();
    expect(refused.status).toBe(507);
    expect(refused.body).toMatchObject({
      code: "storage-full",
      message: "There is no room left to store this. Try again later.",
    });
    expect((await owner.get(`/api/projects/${projectId}`)).body.data.pages).toEqual([]);
    expect(await filesUnder(filesDir)).toEqual(before);

    // Room again (the operator grew the volume): the same upload is taken, and served whole.
    execFileSync("mount", ["-o", "remount,size=8m", filesDir]);
    const taken = await send();
    expect(taken.status).toBe(201);
    const view = (await owner.get(`/api/versions/${taken.body.data.versionId}/view`)).body.data;
    expect(Buffer.from(await (await fetch(view.contentUrl)).arrayBuffer())).toEqual(bytes);
  }, 60_000);
});
