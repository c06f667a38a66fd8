/**
 * Video comments in Chromium with fake media devices (issue #33): a reviewer records the tab with the
 * voice and the camera bubble — countdown, pause and resume, stop — trims the start, attaches the
 * recording (a resumable upload) and posts it as a reply on a pinned comment; a second reviewer sees it
 * arrive live, processed by the server, and plays it: about 3 s long, its sound not silent; a guest of the
 * project's public link, without an account, plays it as well, and records a video reply of their own.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import {
  addMember,
  expectVideoPlays,
  launchWithMedia,
  newProject,
  shot,
  signedIn,
  signInPage,
} from "./helpers.ts";

const run = promisify(execFile);

let e2e: E2E;
let media: Browser;

beforeAll(async () => {
  e2e = await startE2E();
  media = await launchWithMedia();
}, 120_000);
afterAll(async () => {
  await media?.close();
  await e2e?.close();
});

describe("video comments", () => {
  it("records the tab with voice and camera, trims it, posts it on a pinned comment; another reviewer plays it live", {
    timeout: 240_000,
  }, async () => {
    // The media browser is this file's: the harness's pages come from the shared one.
    const withMedia: E2E = {
      ...e2e,
      async newPage() {
        const context = await media.newContext({
          baseURL: e2e.baseUrl,
          viewport: { width: 1400, height: 900 },
        });
        return context.newPage();
      },
    };
    const { page: recorder, api } = await signedIn(withMedia, "recorder", "Rita Recorder");
    const watcherEmail = uniqueEmail("watcher");
    await signUpVerified(e2e.baseUrl, e2e.app.inbox!, watcherEmail, "correct horse battery", "Walt Watcher");
    const projectId = await newProject(api, "Mockups", "image");
    await addMember(api, projectId, watcherEmail, "comment");
    const image = await sharp({ create: { width: 800, height: 500, channels: 3, background: "#2f5fb3" } })
      .png()
      .toBuffer();
    const uploaded = (
      await api.upload(`/api/projects/${projectId}/uploads`, {
        name: "mock.png",
        type: "image/png",
        bytes: image,
      })
    ).body.data;
    const pinned = await api.post(`/api/versions/${uploaded.versionId}/comments`, {
      dotPosition: { x: 0.3, y: 0.3 },
      deviceWidth: 1400,
      comment: "The header feels heavy",
    });
    expect(pinned.status).toBe(201);
    const threadPath = `/project/${projectId}/${uploaded.pageId}/${uploaded.versionId}/comment?id=${pinned.body.data.id}`;

    const watcher = await signInPage(withMedia, watcherEmail);
    await Promise.all([recorder.goto(threadPath), watcher.goto(threadPath)]);
    await watcher.getByText("The header feels heavy").waitFor();

    // Record: countdown, pause and resume, the timer, stop.
    await recorder.getByRole("button", { name: "Record a video" }).click();
    const modal = recorder.getByRole("dialog", { name: "Record a video" });
    await expect.poll(() => modal.getByLabel("Show my camera in a bubble").isChecked()).toBe(true);
    await modal.getByRole("button", { name: "Start recording" }).click();
    await modal.getByText("3", { exact: true }).waitFor();
    const timer = modal.getByRole("timer", { name: "Recording time" });
    await timer.waitFor({ timeout: 10_000 });
    await expect.poll(() => timer.textContent(), { timeout: 10_000 }).toContain("00:02");
    await modal.getByRole("button", { name: "Pause" }).click();
    await modal.getByRole("button", { name: "Resume" }).click();
    await expect.poll(() => timer.textContent(), { timeout: 10_000 }).toContain("00:04");
    await modal.getByRole("button", { name: "Stop" }).click();

    // Preview, trim the first second, attach (uploaded resumably).
    await modal.getByRole("button", { name: "Attach video" }).waitFor();
    // The length shown drops by the second trimmed (the recording's own length depends on how soon Stop
    // was clicked on a loaded machine).
    const length = modal.getByText(/^Video length 00:\d\d$/);
    const seconds = async () => Number((await length.textContent())?.match(/(\d\d)$/)?.[1]);
    const recorded = await seconds();
    expect(recorded).toBeGreaterThanOrEqual(4);
    await modal.getByLabel("Trim start").fill("1");
    await expect.poll(seconds).toBe(recorded - 1);
    await shot(recorder, "video-01-preview");
    await modal.getByRole("button", { name: "Attach video" }).click();
    await modal.waitFor({ state: "detached", timeout: 60_000 });
    await recorder.getByText(`Video 00:0${recorded - 1}`, { exact: true }).waitFor();
    await recorder.getByLabel("Reply", { exact: true }).fill("Watch how the header loads");
    await recorder.getByRole("button", { name: "Reply", exact: true }).click();

    // The other reviewer sees it arrive, processed, without reloading, and plays it.
    const player = watcher.getByLabel(/^Video comment, 00:0\d$/);
    await expectVideoPlays(player, 120_000);
    await watcher.getByLabel("Speed").selectOption("2");
    expect(await player.evaluate((element) => (element as HTMLVideoElement).playbackRate)).toBe(2);
    await shot(watcher, "video-02-thread");

    // A guest of the public link, without an account, opens the comment and plays its video too.
    expect(
      (await api.patch(`/api/projects/${projectId}/sharing`, { public: true, canComment: true })).status,
    ).toBe(200);
    const guest = await withMedia.newPage();
    await guest.goto(`/share/${projectId}`);
    await guest.getByRole("button", { name: "Continue as Anonymous" }).click();
    await guest.getByRole("list", { name: "Comments" }).getByText("The header feels heavy").click();
    await expectVideoPlays(guest.getByLabel(/^Video comment, 00:0[2-4]$/), 30_000);
    await shot(guest, "video-03-guest");

    // The link allows comments: the guest records a reply of their own, which the project's people play.
    await guest.getByRole("button", { name: "Record a video" }).click();
    const guestModal = guest.getByRole("dialog", { name: "Record a video" });
    await guestModal.getByLabel("Show my camera in a bubble").uncheck();
    await guestModal.getByRole("button", { name: "Start recording" }).click();
    const guestTimer = guestModal.getByRole("timer", { name: "Recording time" });
    await expect.poll(() => guestTimer.textContent(), { timeout: 15_000 }).toContain("00:02");
    await guestModal.getByRole("button", { name: "Stop" }).click();
    await guestModal.getByRole("button", { name: "Attach video" }).click();
    await guestModal.waitFor({ state: "detached", timeout: 60_000 });
    await guest.getByLabel("Reply", { exact: true }).fill("Seen from the link");
    await guest.getByRole("button", { name: "Reply", exact: true }).click();
    await guest.getByText("Seen from the link").waitFor();
    await expect
      .poll(
        async () => {
          const [thread] = (await api.get(`/api/versions/${uploaded.versionId}/comments`)).body.data;
          const entry = thread.thread.find((e: { comment: string }) => e.comment === "Seen from the link");
          return entry && { status: entry.videoStatus, guest: entry.author.isGuest };
        },
        { timeout: 60_000, interval: 500 },
      )
      .toEqual({ status: "ready", guest: true });
    await recorder.getByText("Seen from the link").waitFor();
    await expect
      .poll(() => recorder.getByLabel(/^Video comment, 00:0[1-4]$/).count(), { timeout: 30_000 })
      .toBe(2);

    // Its sound is the fake microphone's beep, not silence.
    const comment = (await api.get(`/api/versions/${uploaded.versionId}/comments`)).body.data[0];
    const reply = comment.thread[1];
    expect(reply).toMatchObject({ hasVideo: true, videoStatus: "ready" });
    const response = await fetch(e2e.baseUrl + reply.videoURL, {
      headers: {
        cookie: api
          .cookieList()
          .map((cookie: { name: string; value: string }) => `${cookie.name}=${cookie.value}`)
          .join("; "),
      },
    });
    expect(response.status).toBe(200);
    const dir = await mkdtemp(path.join(os.tmpdir(), "redline-video-e2e-"));
    try {
      const file = path.join(dir, "video");
      await writeFile(file, Buffer.from(await response.arrayBuffer()));
      const { stderr } = await run("ffmpeg", [
        "-nostdin",
        "-i",
        file,
        "-map",
        "0:a:0",
        "-af",
        "volumedetect",
        "-f",
        "null",
        "-",
      ]);
      const max = Number(/max_volume: (-?[\d.]+) dB/.exec(stderr)?.[1] ?? "-91");
      expect(max).toBeGreaterThan(-50);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
