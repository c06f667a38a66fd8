/**
 * Videos on tickets in Chromium with fake media devices (issue #33): a board member records the tab on a
 * ticket with the comments' recorder, attaches it (a resumable upload under the ticket) and replies; a
 * viewer of the board, with the same ticket open, sees the video arrive processed without reloading and
 * plays it (about 3 s).
 */
import type { Browser } from "playwright-core";
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

describe("videos on tickets", () => {
  it("a board member records on a ticket; a viewer of the board plays it live", {
    timeout: 240_000,
  }, async () => {
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
    const { page: recorder, api } = await signedIn(withMedia, "ticket-recorder", "Rita Recorder");
    const viewerEmail = uniqueEmail("ticket-viewer");
    await signUpVerified(e2e.baseUrl, e2e.app.inbox!, viewerEmail, "correct horse battery", "Vera Viewer");
    const projectId = await newProject(api, "Shop bugs", "browse");
    await addMember(api, projectId, viewerEmail, "view");
    const listId = (await api.post(`/api/projects/${projectId}/lists`, { title: "To do" })).body.data.id;
    const ticketId = (
      await api.post(`/api/projects/${projectId}/tickets`, { listId, title: "Checkout button is grey" })
    ).body.data.id;
    const ticketPath = `/project/${projectId}?t=${ticketId}`;

    const viewer = await signInPage(withMedia, viewerEmail);
    await Promise.all([recorder.goto(ticketPath), viewer.goto(ticketPath)]);
    const panel = recorder.getByRole("dialog", { name: "Ticket #1" });
    await panel.waitFor();
    // A viewer reads the ticket and records nothing on it.
    const viewerPanel = viewer.getByRole("dialog", { name: "Ticket #1" });
    await viewerPanel.getByText("Activity").waitFor();
    expect(await viewerPanel.getByRole("button", { name: "Record a video" }).count()).toBe(0);

    // Record 3 s of the tab without the camera, stop, attach.
    await panel.getByRole("button", { name: "Record a video" }).click();
    const modal = recorder.getByRole("dialog", { name: "Record a video" });
    await modal.getByLabel("Show my camera in a bubble").uncheck();
    await modal.getByRole("button", { name: "Start recording" }).click();
    const timer = modal.getByRole("timer", { name: "Recording time" });
    await timer.waitFor({ timeout: 10_000 });
    await expect.poll(() => timer.textContent(), { timeout: 15_000 }).toContain("00:03");
    await modal.getByRole("button", { name: "Stop" }).click();
    await modal.getByRole("button", { name: "Attach video" }).click();
    await modal.waitFor({ state: "detached", timeout: 60_000 });
    await panel.getByText(/^Video 00:0[2-4]$/).waitFor();
    await shot(recorder, "ticket-video-01-attached");
    await panel.getByRole("combobox", { name: "Reply" }).fill("The button after a click");
    await panel.getByRole("button", { name: "Reply", exact: true }).click();
    await panel.getByText("The button after a click").waitFor();

    // The viewer sees it arrive, processed, without reloading, and plays it.
    const player = viewerPanel.getByLabel(/^Video message, 00:0[2-4]$/);
    // The server processes it (the durable job), then the open panel shows it without a reload.
    await expect
      .poll(
        async () =>
          (await api.get(`/api/tickets/${ticketId}`)).body.data.thread.map(
            (entry: { videoStatus: string | null }) => entry.videoStatus,
          ),
        { timeout: 120_000, interval: 500 },
      )
      .toEqual([null, "ready"]);
    await expectVideoPlays(player, 60_000);
    await shot(viewer, "ticket-video-02-played");
    // The recorder's own panel shows the processed video too.
    await recorder
      .getByRole("dialog", { name: "Ticket #1" })
      .getByLabel(/^Video message, 00:0[2-4]$/)
      .waitFor({
        timeout: 60_000,
      });
  });
});
