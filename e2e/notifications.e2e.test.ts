/**
 * In-app notifications in a real browser, against the real app and its realtime socket: a mention
 * arrives live (badge, toast, chime), the panel shows the SPEC wording, opening it clears the badge and
 * clicking the item opens the comment; suggested edits notify editors only; marking seen with unsaved
 * inspect edits asks first.
 */
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E } from "./harness.ts";
import {
  addMember,
  capturedProject,
  newProject,
  openSnapshot,
  type Site,
  serveSite,
  shot,
  signedIn,
} from "./helpers.ts";

let e2e: E2E;
let site: Site;

function startSite(): Promise<typeof site> {
  const html =
    `<!doctype html><html><head><title>Acme shoes</title></head><body style="font-family: sans-serif">` +
    `<header><h1>Acme shoes</h1></header><p class="lead">Light and fast.</p></body></html>`;
  return serveSite((_request, response) =>
    response.writeHead(200, { "content-type": "text/html" }).end(html),
  );
}

beforeAll(async () => {
  [e2e, site] = await Promise.all([startE2E({ config: { captureWorker: true } }), startSite()]);
});

afterAll(async () => {
  await e2e?.close();
  await site?.close();
});

const uidOf = async (api: ApiClient) => (await api.get("/api/me")).body.data.uid as string;
const bell = (page: Page) => page.getByRole("banner").getByRole("button", { name: /^Notifications/ });
const badge = (page: Page) => page.getByTestId("notifications-badge");
const panel = (page: Page) => page.getByRole("dialog", { name: "Notifications" });
const counts = async (api: ApiClient) =>
  (await api.get("/api/notifications/counts")).body.data as { unseen: number; notNotified: number };

/** Counts the chimes the page plays (every note is an oscillator started). */
async function countChimes(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const start = OscillatorNode.prototype.start;
    (window as unknown as { chimes: number }).chimes = 0;
    OscillatorNode.prototype.start = function (...args) {
      (window as unknown as { chimes: number }).chimes += 1;
      return start.apply(this, args);
    };
  });
}
const chimes = (page: Page) => page.evaluate(() => (window as unknown as { chimes: number }).chimes);

const capturedPage = (api: ApiClient) => capturedProject(api, `${site.url}/product`);

const openInspect = (page: Page, path: string) => openSnapshot(page, `${path}/inspect`, "inspect");

describe("notifications", () => {
  it("a mention arrives live, the panel tells it in the SPEC's words, and opens the comment", {
    timeout: 120_000,
  }, async () => {
    const bob = await signedIn(e2e, "notify-bob", "Bob Builder");
    const ada = await signedIn(e2e, "notify-ada", "Ada Lovelace");
    await countChimes(bob.page);
    await bob.page.reload();
    await bell(bob.page).waitFor();

    // Bob shares his project with Ada; it has a screenshot page with a long name.
    const projectId = await newProject(bob.api, "Launch");
    const picture = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#2f5fb3" } })
      .png()
      .toBuffer();
    const uploaded = await bob.api.upload(`/api/projects/${projectId}/uploads`, {
      name: "Homepage with hero banner.png",
      type: "image/png",
      bytes: picture,
    });
    expect(uploaded.status).toBe(201);
    const { pageId, versionId } = uploaded.body.data as { pageId: string; versionId: string };
    await addMember(bob.api, projectId, ada.email, "comment");
    expect(await badge(bob.page).count()).toBe(0);

    // Ada comments and mentions Bob: his badge appears without a reload, with a toast and a chime.
    const created = await ada.api.post(`/api/versions/${versionId}/comments`, {
      dotPosition: { x: 0.5, y: 0.5 },
      deviceWidth: 1280,
      comment: `Can you check this {@${await uidOf(bob.api)}}?`,
    });
    expect(created.status).toBe(201);
    const commentId = created.body.data.id as string;
    await expect.poll(() => badge(bob.page).textContent()).toBe("1");
    await expect
      .poll(() => bob.page.getByRole("status").filter({ hasText: "Ada Lovelace mentioned you" }).count())
      .toBe(1);
    await expect
      .poll(() => bob.page.getByRole("status").filter({ hasText: "mentioned you" }).textContent())
      .toContain("Ada Lovelace mentioned you in a comment on Homepage with h...");
    await expect.poll(() => chimes(bob.page)).toBeGreaterThan(0);
    // The toast closes itself after 3 s.
    await expect
      .poll(() => bob.page.getByRole("status").filter({ hasText: "mentioned you" }).count(), {
        timeout: 6000,
      })
      .toBe(0);
    await shot(bob.page, "notifications-01-badge");

    // Opening the panel shows it and clears the badge (for good: the server recorded it).
    await bell(bob.page).click();
    const list = panel(bob.page).getByRole("list", { name: "Notifications list" });
    await list.getByText("mentioned you in a comment on").waitFor();
    await expect
      .poll(() =>
        list
          .getByRole("button", {
            name: /^Ada Lovelace mentioned you in a comment on Homepage with h\.\.\. (just now|\d+ min ago)$/,
          })
          .count(),
      )
      .toBe(1);
    await expect.poll(() => badge(bob.page).count()).toBe(0);
    await expect.poll(async () => (await counts(bob.api)).notNotified).toBe(0);
    expect((await counts(bob.api)).unseen).toBe(1);
    await panel(bob.page).getByRole("combobox", { name: "Filter by project" }).waitFor();
    await shot(bob.page, "notifications-02-panel");

    // Clicking it opens the comment and marks it seen.
    await list.getByRole("button", { name: /mentioned you in a comment on/ }).click();
    await bob.page.waitForURL(
      (url) =>
        url.pathname === `/project/${projectId}/${pageId}/${versionId}/comment` &&
        url.search === `?id=${commentId}`,
    );
    await expect.poll(async () => (await counts(bob.api)).unseen).toBe(0);

    // With the sound turned off a new notification still shows, silently.
    expect((await bob.api.patch("/api/me", { notificationSound: false })).status).toBe(200);
    await bob.page.goto("/projects");
    await bell(bob.page).waitFor();
    const before = await chimes(bob.page);
    await ada.api.post(`/api/versions/${versionId}/comments`, {
      dotPosition: { x: 0.2, y: 0.2 },
      deviceWidth: 1280,
      comment: "Also the footer",
    });
    await expect.poll(() => badge(bob.page).textContent()).toBe("1");
    await expect
      .poll(() => bob.page.getByRole("status").filter({ hasText: "Ada Lovelace commented on page" }).count())
      .toBe(1);
    expect(await chimes(bob.page)).toBe(before);
  });

  it("suggested edits notify an edit member, not a comment member; unsaved edits ask before marking seen", {
    timeout: 180_000,
  }, async () => {
    const owner = await signedIn(e2e, "notify-owner", "Olivia Owner");
    const editor = await signedIn(e2e, "notify-editor", "Ed Editor");
    const commenter = await signedIn(e2e, "notify-commenter", "Carl Commenter");
    const { projectId, versionId, path } = await capturedPage(owner.api);
    await addMember(owner.api, projectId, editor.email, "edit");
    await addMember(owner.api, projectId, commenter.email, "comment");
    // Both were told they were invited.
    await expect.poll(() => badge(editor.page).textContent()).toBe("1");
    await expect.poll(() => badge(commenter.page).textContent()).toBe("1");

    const heading = {
      v: 1,
      querySelector: "h1",
      selectors: { css: "h1", xpath: "/html/body/header/h1", idPath: null },
      fingerprint: { tag: "h1" },
      dot: null,
    };
    const saved = await owner.api.post(`/api/versions/${versionId}/changes`, {
      changes: [
        { changeType: "style", anchor: heading, deviceWidth: 1280, property: "color", value: "red" },
        { changeType: "style", anchor: heading, deviceWidth: 1280, property: "font-size", value: "40px" },
      ],
    });
    expect(saved.status).toBe(200);
    await expect.poll(() => badge(editor.page).textContent()).toBe("2");
    await bell(editor.page).click();
    await panel(editor.page).getByText("suggested 2 edits on page").waitFor();
    await panel(editor.page).getByText("invited you to a project").waitFor();
    await editor.page.keyboard.press("Escape");

    // Three more edits by the same person fold into that notification: one item, five edits, news again.
    for (const value of ["blue", "green", "navy"]) {
      const again = await owner.api.post(`/api/versions/${versionId}/changes`, {
        changes: [{ changeType: "style", anchor: heading, deviceWidth: 1280, property: "color", value }],
      });
      expect(again.status).toBe(200);
    }
    await expect.poll(() => badge(editor.page).textContent()).toBe("1");
    await bell(editor.page).click();
    await panel(editor.page).getByText("suggested 5 edits on page").waitFor();
    expect(
      await panel(editor.page)
        .getByText(/suggested/)
        .count(),
    ).toBe(1);
    await editor.page.keyboard.press("Escape");

    // The comment member hears of the invitation only, however long we wait for more.
    await bell(commenter.page).click();
    await panel(commenter.page).getByText("invited you to a project").waitFor();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(
      await panel(commenter.page)
        .getByText(/suggested/)
        .count(),
    ).toBe(0);
    expect(await panel(commenter.page).getByRole("listitem").count()).toBe(1);

    // The editor has an unsaved edit in inspect mode; a comment notification arrives.
    const frame = await openInspect(editor.page, path);
    const inspectPanel = editor.page.locator("aside.inspect-panel");
    await frame.locator("h1").click();
    await inspectPanel.getByText("Editing ‹h1›").waitFor();
    await inspectPanel.getByLabel("Font size").selectOption("48px");
    const saveButton = editor.page.getByRole("button", { name: /^Save \(\d+\)$/ });
    await expect.poll(() => saveButton.textContent()).toBe("Save (1)");
    await owner.api.post(`/api/versions/${versionId}/comments`, {
      anchor: heading,
      dotPosition: { x: 0.5, y: 0.5 },
      deviceWidth: 1280,
      comment: "Heading looks off",
    });
    await expect.poll(() => badge(editor.page).textContent()).toBe("1");

    // Marking it seen asks first; staying keeps both the edit and the notification as they were.
    await bell(editor.page).click();
    const item = panel(editor.page).getByRole("listitem").filter({ hasText: "commented on page" });
    await item.getByRole("button", { name: "Mark as seen" }).click();
    const dialog = editor.page.getByRole("dialog", { name: "Unsaved changes" });
    await dialog.waitFor();
    await shot(editor.page, "notifications-03-unsaved");
    await dialog.getByRole("button", { name: "Stay" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect((await counts(editor.api)).unseen).toBe(3);
    expect(await saveButton.textContent()).toBe("Save (1)");

    // "Clear all" asks too; exiting without saving drops the edit and marks everything seen.
    await bell(editor.page).click();
    await panel(editor.page).getByRole("button", { name: "Clear all" }).click();
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Exit without saving" }).click();
    await expect.poll(async () => (await counts(editor.api)).unseen).toBe(0);
    await expect.poll(() => saveButton.textContent()).toBe("Save (0)");
    expect(editor.page.url()).toContain(`${path}/inspect`);
  });
});
