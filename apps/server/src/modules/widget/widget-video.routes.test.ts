/**
 * A widget reporter's screen recording over HTTP (issue #33): the intake's answer grants an upload token for
 * the new report; with it, from the project's allowed origin, the page uploads (tus) and names its video,
 * which becomes the first entry's — measured and processed as the board's videos are, then played by the
 * board's readers. Refused with nothing kept: no, forged or expired token (401), another report's token
 * (403), another origin (403), a second video (409), a file that is not a video (400), past the owner's plan
 * (402).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  type TicketDetail,
  WIDGET_VIDEO_LIMIT_PATH,
  WIDGET_VIDEO_TOKEN_HEADER,
  WIDGET_VIDEO_TOKEN_MINUTES,
  type WidgetReportAnswer,
} from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../testing/http-client.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";
import { createUpload, makeVideo, patch, TUS } from "../../testing/video-uploads.ts";
import { widgetVideoGrant } from "./widget-video.routes.ts";

const SITE = "https://shop.example.com";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "redline-widget-video-test-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A bug-tracking project whose widget takes reports from SITE: its owner and the widget's key. */
async function widgetProject(t: TestApp) {
  const owner = await signUpPerson(t, "owner");
  const projectId = (await owner.client.post("/api/projects", { title: "Shop bugs", type: "browse" })).body
    .data.id as string;
  const settings = await owner.client.put(`/api/projects/${projectId}/widget`, { allowedOrigins: [SITE] });
  return { owner, projectId, key: settings.body.data.key as string };
}

/** A report sent through the intake from SITE; the intake's answer. */
async function report(t: TestApp, key: string, note = "The checkout button does nothing") {
  const form = new FormData();
  form.append(
    "report",
    JSON.stringify({
      key,
      note,
      reporter: { name: "Gail Guest", email: "gail@example.com" },
      report: { pageUrl: `${SITE}/checkout`, viewport: { width: 1280, height: 800 } },
    }),
  );
  const response = await fetch(`${t.url}/api/widget/reports`, {
    method: "POST",
    body: form,
    headers: { origin: SITE },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: WidgetReportAnswer }).data;
}

/** The reporter's page: no session, the site's Origin, the report's token. */
const page = (t: TestApp) => new ApiClient(t.url);
const asPage = (token: string, origin = SITE) => ({ origin, [WIDGET_VIDEO_TOKEN_HEADER]: token });

/** The page uploads `bytes` with the report's grant; the upload's id. */
async function uploadAs(t: TestApp, grant: WidgetReportAnswer["video"], bytes: Buffer): Promise<string> {
  const created = await createUpload(page(t), grant.uploads, bytes.length, {}, asPage(grant.token));
  expect(created.status).toBe(201);
  expect(created.location).toMatch(new RegExp(`^${grant.uploads}/`));
  const sent = await patch(page(t), created.location!, 0, bytes, asPage(grant.token));
  expect(sent.status).toBe(204);
  // Readable by the reporter's page.
  expect(sent.headers.get("access-control-allow-origin")).toMatch(/^(\*|https:\/\/shop\.example\.com)$/);
  return created.upload;
}

const firstEntry = async (owner: Person, ticketId: string) =>
  ((await owner.client.get(`/api/tickets/${ticketId}`)).body.data as TicketDetail).thread[0]!;

describe.each(routeDrivers())("a widget report's recording (%s)", (driver) => {
  let t: TestApp;
  let clip: Buffer;
  let widget: Awaited<ReturnType<typeof widgetProject>>;

  beforeAll(async () => {
    [clip, t] = await Promise.all([makeVideo(dir, "clip.webm", 2), startTestApp({ driver })]);
    widget = await widgetProject(t);
  }, 60_000);
  afterAll(() => t?.close());

  it("the reporter's page uploads its recording with the report's token; the board plays it on the report", async () => {
    const sent = await report(t, widget.key);
    expect(sent.video).toEqual({
      uploads: `/api/widget/tickets/${sent.id}/videos`,
      attach: `/api/widget/tickets/${sent.id}/video`,
      token: expect.stringMatching(new RegExp(`^${sent.id}\\.\\d+\\.[A-Za-z0-9_-]+$`)),
      expiresAt: expect.any(String),
    });
    const minutes = (Date.parse(sent.video.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(WIDGET_VIDEO_TOKEN_MINUTES - 1);
    expect(minutes).toBeLessThanOrEqual(WIDGET_VIDEO_TOKEN_MINUTES);

    // The browser asks first: the site may send the tus headers and the token.
    const preflight = await fetch(`${t.url}${sent.video.uploads}`, {
      method: "OPTIONS",
      headers: {
        origin: SITE,
        "access-control-request-method": "POST",
        "access-control-request-headers": `tus-resumable,upload-length,${WIDGET_VIDEO_TOKEN_HEADER}`,
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(SITE);
    expect(preflight.headers.get("access-control-allow-headers")).toContain(WIDGET_VIDEO_TOKEN_HEADER);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PATCH");
    const elsewhere = await fetch(`${t.url}${sent.video.uploads}`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.headers.get("access-control-allow-origin")).toBeNull();

    const limit = await page(t).request(
      "GET",
      `${sent.video.uploads}/limit`,
      undefined,
      asPage(sent.video.token),
    );
    expect(limit.body.data).toEqual({ limitSeconds: -1 });

    const upload = await uploadAs(t, sent.video, clip);
    const attached = await page(t).request("POST", sent.video.attach, { upload }, asPage(sent.video.token));
    expect(attached.status, JSON.stringify(attached.body)).toBe(202);
    expect(attached.headers.get("access-control-allow-origin")).toBe(SITE);
    expect(attached.body.data).toMatchObject({ videoStatus: "processing" });

    // The owner sees the report's first entry carry it, processed, and plays it.
    await expect
      .poll(async () => (await firstEntry(widget.owner, sent.id)).videoStatus, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe("ready");
    const entry = await firstEntry(widget.owner, sent.id);
    expect(entry.comment).toBe("The checkout button does nothing");
    expect(Math.abs(entry.videoDuration! - 2)).toBeLessThan(0.3);
    const video = await widget.owner.client.request("GET", entry.videoURL!);
    expect(video.status).toBe(200);
    expect(video.headers.get("content-type")).toBe("video/webm");
    expect(await t.ctx.videoUploads.finishedSize(upload)).toBeNull();

    // One video per report: a second is refused, from its start and when named.
    await expectRefused(
      t,
      () => createUpload(page(t), sent.video.uploads, clip.length, {}, asPage(sent.video.token)),
      409,
      "video-already-attached",
    );
    await expectRefused(
      t,
      () => page(t).request("POST", sent.video.attach, { upload }, asPage(sent.video.token)),
      409,
      "video-already-attached",
    );
  }, 120_000);

  it("refuses a missing, forged or expired token (401), another report's (403) and another site (403)", async () => {
    const [one, other] = [await report(t, widget.key, "One"), await report(t, widget.key, "Other")];
    const start = (token: string | null, origin = SITE, uploads = one.video.uploads) =>
      createUpload(page(t), uploads, 100, {}, token === null ? { origin } : asPage(token, origin));
    await expectRefused(t, () => start(null), 401, "upload-token-missing");
    const [ticketId, exp, sig] = one.video.token.split(".");
    const forged = `${ticketId}.${Number(exp) + 3600}.${sig}`;
    await expectRefused(t, () => start(forged), 401, "upload-token-invalid");
    await expectRefused(t, () => start(`${other.id}.${exp}.${sig}`), 401, "upload-token-invalid");
    const expired = widgetVideoGrant(
      t.ctx.config,
      one.id,
      Date.now() - (WIDGET_VIDEO_TOKEN_MINUTES + 1) * 60_000,
    );
    await expectRefused(t, () => start(expired.token), 401, "upload-token-invalid");
    await expectRefused(
      t,
      () => start(other.video.token, SITE, one.video.uploads),
      403,
      "upload-token-other-ticket",
    );
    await expectRefused(t, () => start(one.video.token, "https://evil.example"), 403, "origin-not-allowed");
    // A signed-in member of the board has no token either: this route is the page's.
    await expectRefused(
      t,
      () =>
        widget.owner.client.request("POST", one.video.uploads, undefined, { ...TUS, "upload-length": "4" }),
      401,
      "upload-token-missing",
    );
    // Naming an upload asks the same.
    await expectRefused(
      t,
      () =>
        page(t).request(
          "POST",
          one.video.attach,
          { upload: `${widget.projectId}.widget-${one.id}.${"0".repeat(32)}` },
          { origin: SITE },
        ),
      401,
    );
    expect((await firstEntry(widget.owner, one.id)).hasVideo).toBe(false);
  });

  it("refuses a file that is not a video, and keeps nothing; the report may still get its video", async () => {
    const sent = await report(t, widget.key, "Not a video");
    const upload = await uploadAs(t, sent.video, Buffer.from("not a video at all, just text"));
    await expectRefused(
      t,
      () => page(t).request("POST", sent.video.attach, { upload }, asPage(sent.video.token)),
      400,
      "not-a-video",
    );
    expect(await t.ctx.videoUploads.finishedSize(upload)).toBeNull();
    // Another report's upload is not this one's to name.
    const other = await report(t, widget.key, "Other");
    const theirs = await uploadAs(t, other.video, clip);
    await expectRefused(
      t,
      () => page(t).request("POST", sent.video.attach, { upload: theirs }, asPage(sent.video.token)),
      400,
      "video-upload-missing",
    );
    expect((await firstEntry(widget.owner, sent.id)).hasVideo).toBe(false);
  });
});

describe.each(routeDrivers())("a widget report's recording with plans (%s)", (driver) => {
  let t: TestApp;
  afterAll(() => t?.close());

  it("a free browse owner's plan limits the reporter's video: 61 seconds refused with its reason, nothing kept", async () => {
    const long = await makeVideo(dir, "long.webm", 61, "160x120");
    t = await startTestApp({ driver, config: { plansEnabled: true } });
    const widget = await widgetProject(t);
    const sent = await report(t, widget.key);
    const limit = await page(t).request(
      "GET",
      `${sent.video.uploads}/limit`,
      undefined,
      asPage(sent.video.token),
    );
    expect(limit.body.data).toEqual({ limitSeconds: 60 });
    const upload = await uploadAs(t, sent.video, long);
    const refused = await expectRefused(
      t,
      () => page(t).request("POST", sent.video.attach, { upload }, asPage(sent.video.token)),
      402,
      "video-too-long",
    );
    expect(refused.body.message).toBe(
      "The project owner's plan allows videos of up to 1 minute. Trim the video or upgrade for longer ones.",
    );
    expect(await t.ctx.videoUploads.finishedSize(upload)).toBeNull();
  }, 120_000);

  it("tells the recorder, before any report, how long a recording may be: by the widget key, from its site", async () => {
    t ??= await startTestApp({ driver, config: { plansEnabled: true } });
    const widget = await widgetProject(t);
    const ask = (key: string, origin?: string) =>
      page(t).request(
        "GET",
        `${WIDGET_VIDEO_LIMIT_PATH}?key=${encodeURIComponent(key)}`,
        undefined,
        origin ? { origin } : {},
      );
    // The free browse plan's minute, readable by the site's page (no preflight: a simple GET).
    const allowed = await ask(widget.key, SITE);
    expect(allowed.status).toBe(200);
    expect(allowed.body.data).toEqual({ limitSeconds: 60 });
    expect(allowed.headers.get("access-control-allow-origin")).toBe(SITE);
    // Another site, no site, an unknown key, no key: refused, and nothing of the plan told.
    const other = await ask(widget.key, "https://evil.example.com");
    expect([other.status, other.body.code]).toEqual([403, "origin-not-allowed"]);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect((await ask(widget.key)).status).toBe(403);
    expect((await ask("no-such-key", SITE)).status).toBe(404);
    expect((await page(t).request("GET", WIDGET_VIDEO_LIMIT_PATH, undefined, { origin: SITE })).status).toBe(
      400,
    );
    expect((await ask("k".repeat(65), SITE)).status).toBe(400);
    // Plans off: no limit.
    t.ctx.config.plansEnabled = false;
    try {
      expect((await ask(widget.key, SITE)).body.data).toEqual({ limitSeconds: -1 });
    } finally {
      t.ctx.config.plansEnabled = true;
    }
  });
});
