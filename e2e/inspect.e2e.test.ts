/**
 * Inspect mode in a real browser, against the real app, its capture worker, the overlay inside the
 * snapshot and the realtime socket: an editor restyles a heading, rewrites a paragraph with bold,
 * replaces an image and moves a button with Shift+arrows, then saves; a second editor sees the
 * suggestions without reloading; the preview shows them at desktop and mobile widths; the `.css` patch
 * put into the live site reproduces the previewed styles; hide, delete and resolve; undo; and the
 * unsaved-changes dialog on leaving.
 */
import { readFile } from "node:fs/promises";
import { comparePngs } from "@redline/capture/testing";
import type { Frame, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E } from "./harness.ts";
import {
  capturedProject,
  openSnapshot,
  overlayMode,
  type Site,
  serveSite,
  shot,
  signedIn,
} from "./helpers.ts";

let e2e: E2E;
let site: Site;

async function startSite(): Promise<typeof site> {
  const picture = await sharp({ create: { width: 160, height: 100, channels: 3, background: "#2f5fb3" } })
    .png()
    .toBuffer();
  const css = `
    body { margin: 0; font-family: sans-serif; }
    header { padding: 24px; background: #18181b; color: white; }
    h1 { margin: 0; font-size: 32px; }
    section { padding: 32px 24px; }
    img { display: block; width: 160px; height: 100px; }
    button { padding: 12px 28px; font-size: 18px; }
    @media (max-width: 740px) { h1 { font-size: 24px; } }`;
  const html =
    `<!doctype html><html><head><title>Acme shoes</title><meta name="viewport" content="width=device-width">` +
    `<link rel="stylesheet" href="/style.css"></head><body>` +
    `<header><h1>Acme shoes</h1></header><main><section class="hero">` +
    `<p class="lead">Light and fast.</p><img class="photo" src="/shoe.png" alt="A shoe">` +
    `<button class="buy" type="button">Buy now</button></section></main></body></html>`;
  return serveSite((request, response) => {
    if (request.url === "/style.css") return response.writeHead(200, { "content-type": "text/css" }).end(css);
    if (request.url === "/shoe.png")
      return response.writeHead(200, { "content-type": "image/png" }).end(picture);
    if (request.url === "/product") return response.writeHead(200, { "content-type": "text/html" }).end(html);
    response.writeHead(404).end();
  });
}

beforeAll(async () => {
  [e2e, site] = await Promise.all([startE2E({ config: { captureWorker: true } }), startSite()]);
});

afterAll(async () => {
  await e2e?.close();
  await site?.close();
});

const productProject = (api: ApiClient) => capturedProject(api, `${site.url}/product`);

/** The computed styles the edits touch, read inside a document (the snapshot, or the live page). */
async function looks(frame: Frame | Page) {
  return frame.evaluate(() => {
    const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
    return {
      h1FontSize: style("h1").fontSize,
      h1Color: style("h1").color,
      buttonTranslate: style("button.buy").translate,
    };
  });
}

/**
 * Compares the common top-left part of two element screenshots (the frame and the live page may
 * differ by a scrollbar's width).
 */
async function sameRegion(a: Buffer, b: Buffer) {
  const [left, right] = await Promise.all([sharp(a).metadata(), sharp(b).metadata()]);
  const width = Math.min(left.width, right.width);
  const height = Math.min(left.height, right.height);
  const crop = (image: Buffer) => sharp(image).extract({ left: 0, top: 0, width, height }).png().toBuffer();
  return comparePngs(await crop(a), await crop(b));
}

const saveButton = (page: Page) => page.getByRole("button", { name: /^Save \(\d+\)$/ });

describe("suggesting edits on a captured page", () => {
  it("edits, saves, shares live, previews, exports CSS, hides, deletes, resolves and guards unsaved edits", {
    timeout: 240_000,
  }, async () => {
    const owner = await signedIn(e2e, "edit-owner", "Ada Lovelace");
    const editor = await signedIn(e2e, "edit-editor", "Bob Builder");
    const { projectId, versionId, path } = await productProject(owner.api);
    const shared = await owner.api.post(`/api/projects/${projectId}/members`, {
      email: editor.email,
      access: "edit",
    });
    expect(shared.status).toBe(201);

    const frame = await openSnapshot(owner.page, `${path}/inspect`);
    const bobFrame = await openSnapshot(editor.page, `${path}/inspect?activity=true`);
    await editor.page.getByText("No suggested edits yet").waitFor();
    const panel = owner.page.locator("aside.inspect-panel");
    await panel
      .getByText("Inspect and edit page elements, including font, alignment, spacing, etc.")
      .waitFor();
    await panel.getByText("Save your changes once you are done with all the edits.").waitFor();
    // A click in the frame selects only once the overlay has been told it is in inspect mode.
    await expect.poll(() => overlayMode(frame)).toBe("inspect");

    // The heading: font size from the list, colour as text.
    await frame.locator("h1").click();
    await panel.getByText("Editing ‹h1›").waitFor();
    await panel.getByLabel("Font size").selectOption("48px");
    await panel.getByLabel("Text colour value", { exact: true }).fill("#e5383b");
    await expect.poll(async () => (await looks(frame)).h1FontSize).toBe("48px");
    await expect.poll(async () => (await looks(frame)).h1Color).toBe("rgb(229, 56, 59)");
    await shot(owner.page, "inspect-01-heading");

    // The paragraph: edited in place, with a bold run typed after Ctrl+B.
    await frame.locator("p.lead").click();
    await frame.locator("p.lead").dblclick();
    await owner.page.keyboard.press("End");
    await owner.page.keyboard.press("Control+B");
    await owner.page.keyboard.type(" Now bold.");
    await owner.page.keyboard.press("Escape");
    await expect.poll(() => saveButton(owner.page).textContent()).toBe("Save (3)");
    await expect.poll(() => frame.locator("p.lead b").textContent()).toContain("Now bold.");

    // The image: replaced by an upload.
    await frame.locator("img.photo").click();
    await panel.getByText("Editing ‹img›").waitFor();
    const replacement = await sharp({
      create: { width: 160, height: 100, channels: 3, background: "#1f7a4d" },
    })
      .png()
      .toBuffer();
    await panel
      .getByLabel("Replace image")
      .setInputFiles({ name: "green.png", mimeType: "image/png", buffer: replacement });
    await expect
      .poll(() => frame.locator("img.photo").getAttribute("src"))
      .toMatch(/\/a\/[0-9a-f]{64}\.png$/);

    // The button: moved 20 px right and 10 px down with Shift+arrows.
    await frame.locator("button.buy").click();
    await panel.getByText("Editing ‹button›").waitFor();
    await owner.page.keyboard.press("Shift+ArrowRight");
    await owner.page.keyboard.press("Shift+ArrowRight");
    await owner.page.keyboard.press("Shift+ArrowDown");
    await expect.poll(() => saveButton(owner.page).textContent()).toBe("Save (5)");
    await expect.poll(async () => (await looks(frame)).buttonTranslate).toBe("20px 10px");
    await shot(owner.page, "inspect-02-unsaved");

    // Save: the message, the list, and Bob sees them without reloading.
    await saveButton(owner.page).click();
    await owner.page.getByText("New changes have been saved successfully.").waitFor();
    await expect.poll(() => saveButton(owner.page).textContent()).toBe("Save (0)");
    const saved = (await owner.api.get(`/api/versions/${versionId}/changes`)).body.data as {
      id: string;
      property: string;
      changeType: string;
      value: string | null;
    }[];
    expect(saved.map((change) => change.property).sort()).toEqual(
      ["color", "font-size", "src", "text", "translate"].sort(),
    );
    const bobList = editor.page.getByRole("list", { name: "Suggested edits" });
    await bobList.getByText("font-size: 48px").waitFor();
    await bobList.getByText("translate: 20px 10px").waitFor();
    await bobList.getByText("image: replaced").waitFor();
    await expect.poll(async () => (await looks(bobFrame)).h1FontSize).toBe("48px");
    await shot(editor.page, "inspect-03-live-activity");

    // Someone with comment access sees the edits applied and the list, but no controls.
    const commenter = await signedIn(e2e, "edit-commenter", "Cy Commenter");
    const invited = await owner.api.post(`/api/projects/${projectId}/members`, {
      email: commenter.email,
      access: "comment",
    });
    expect(invited.status).toBe(201);
    const cyFrame = await openSnapshot(commenter.page, `${path}/inspect`);
    const cyList = commenter.page.getByRole("list", { name: "Suggested edits" });
    await cyList.getByText("font-size: 48px").waitFor();
    await expect.poll(async () => (await looks(cyFrame)).h1FontSize).toBe("48px");
    expect(await cyList.getByRole("button", { name: "Hide edit" }).count()).toBe(0);
    expect(await saveButton(commenter.page).count()).toBe(0);
    await commenter.page
      .getByText("You can see the suggested edits on this page. Your access does not let you add any.")
      .waitFor();
    await commenter.page.close();

    // Preview, desktop and mobile: every visible edit applied.
    const preview = await openSnapshot(owner.page, `${path}/preview`);
    await expect
      .poll(() => looks(preview))
      .toEqual({
        h1FontSize: "48px",
        h1Color: "rgb(229, 56, 59)",
        buttonTranslate: "20px 10px",
      });
    await expect.poll(() => preview.locator("p.lead b").textContent()).toContain("Now bold.");
    await shot(owner.page, "inspect-04-preview-desktop");
    const previewLooks = await looks(preview);
    const previewHeader = await preview.locator("header").screenshot();
    const mobile = await openSnapshot(owner.page, `${path}/preview?device=mobile`);
    await expect.poll(async () => (await looks(mobile)).h1FontSize).toBe("48px");
    await expect
      .poll(() => mobile.locator("img.photo").getAttribute("src"))
      .toMatch(/\/a\/[0-9a-f]{64}\.png$/);
    await shot(owner.page, "inspect-05-preview-mobile");

    // The CSS patch on the live site reproduces the previewed styles.
    const patch = await owner.api.get(`/api/versions/${versionId}/changes.css`);
    expect(patch.status).toBe(200);
    const live = await e2e.newPage();
    await live.setViewportSize({ width: 1280, height: 800 });
    await live.goto(`${site.url}/product`);
    expect(await looks(live)).not.toEqual(previewLooks);
    const liveHeader = await live.locator("header").screenshot();
    await live.addStyleTag({ content: String(patch.body) });
    expect(await looks(live)).toEqual(previewLooks);
    // …and looks the same, pixel for pixel: the restyled heading in the live page against the preview.
    const patchedHeader = await live.locator("header").screenshot();
    const [patched, unpatched] = await Promise.all([
      sameRegion(previewHeader, patchedHeader),
      sameRegion(previewHeader, liveHeader),
    ]);
    expect(patched.identical).toBeGreaterThan(0.999);
    expect(unpatched.identical).toBeLessThan(0.99);

    // Hide the colour, delete the move, resolve the font size.
    await owner.page.goto(`${path}/inspect?activity=true`);
    // Hand-off to developers: the CSS patch copied and downloaded is the server's.
    await owner.page
      .context()
      .grantPermissions(["clipboard-read", "clipboard-write"], { origin: e2e.baseUrl });
    await owner.page.getByRole("button", { name: "Copy as CSS" }).click();
    await owner.page.getByText("CSS copied to the clipboard.").waitFor();
    const copiedCss = await owner.page.evaluate(() => navigator.clipboard.readText());
    expect(copiedCss).toContain("font-size: 48px !important");
    const [download] = await Promise.all([
      owner.page.waitForEvent("download"),
      owner.page.getByRole("link", { name: "Download .css" }).click(),
    ]);
    const downloaded = await readFile((await download.path())!, "utf8");
    expect(downloaded).toBe(String(patch.body));
    expect(downloaded).toContain(copiedCss.trim().split("\n")[0]);
    const list = owner.page.getByRole("list", { name: "Suggested edits" });
    await list
      .getByRole("listitem", { name: /color: #e5383b/ })
      .getByRole("button", { name: "Hide edit" })
      .click();
    await list
      .getByRole("listitem", { name: /color: #e5383b/ })
      .getByRole("button", { name: "Show edit" })
      .waitFor();
    await list
      .getByRole("listitem", { name: /translate: 20px 10px/ })
      .getByRole("button", { name: "Delete edit" })
      .click();
    await owner.page.getByText("Suggestion(s) deleted successfully.").waitFor();
    await list
      .getByRole("listitem", { name: /font-size: 48px/ })
      .getByRole("button", { name: "Resolve edit" })
      .click();
    await list
      .getByRole("listitem", { name: /font-size: 48px/ })
      .getByText("Resolved")
      .waitFor();
    const after = (await owner.api.get(`/api/versions/${versionId}/changes`)).body.data as {
      property: string;
      isHidden: boolean;
      isResolved: boolean;
    }[];
    expect(after.map((change) => change.property).sort()).toEqual(
      ["color", "font-size", "src", "text"].sort(),
    );
    expect(after.find((change) => change.property === "color")?.isHidden).toBe(true);
    expect(after.find((change) => change.property === "font-size")?.isResolved).toBe(true);
    const ownerFrame = await (await owner.page
      .locator('iframe[title="Page snapshot"]')
      .elementHandle())!.contentFrame();
    await expect.poll(async () => (await looks(ownerFrame!)).h1Color).toBe("rgb(255, 255, 255)");
    await expect.poll(async () => (await looks(ownerFrame!)).buttonTranslate).toBe("none");
    await expect.poll(async () => (await looks(bobFrame)).buttonTranslate).toBe("none");
    await shot(owner.page, "inspect-06-managed");

    // Undo, then the unsaved-changes dialog on leaving: stay, then exit without saving.
    const edit = await openSnapshot(owner.page, `${path}/inspect`);
    await expect.poll(() => overlayMode(edit)).toBe("inspect");
    // Ctrl+J turns edit mode off (the page works as captured) and on again — from the app or the page.
    // The button flips first; the overlay learns the mode in a message after it.
    const editMode = owner.page.getByRole("button", { name: "Edit mode" });
    await owner.page.keyboard.press("Control+j");
    await expect.poll(() => editMode.getAttribute("aria-pressed")).toBe("false");
    await expect.poll(() => overlayMode(edit)).toBe("browse");
    await edit.locator("p.lead").click({ modifiers: ["Control"] });
    await edit.locator("p.lead").press("Control+j");
    await expect.poll(() => editMode.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => overlayMode(edit)).toBe("inspect");
    await edit.locator("h1").click();
    await panel.getByText("Editing ‹h1›").waitFor();
    await panel.getByLabel("Font size").selectOption("72px");
    await panel.getByLabel("Font size").selectOption("14px");
    await panel.getByRole("heading", { name: "Edit", exact: true }).click();
    await expect.poll(() => saveButton(owner.page).textContent()).toBe("Save (1)");
    await owner.page.keyboard.press("Control+z");
    await expect.poll(async () => (await looks(edit)).h1FontSize).toBe("72px");
    await owner.page
      .getByRole("navigation", { name: "Review mode" })
      .getByRole("link", { name: "Comment" })
      .click();
    const dialog = owner.page.getByRole("dialog", { name: "Unsaved changes" });
    await dialog.waitFor();
    await dialog.getByText("You have 1 unsaved change on this page. Save it first?").waitFor();
    await shot(owner.page, "inspect-07-unsaved-dialog");
    await dialog.getByRole("button", { name: "Stay" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(new URL(owner.page.url()).pathname).toBe(`${path}/inspect`);
    // Signing out asks the same question; staying keeps the session and the edit.
    await owner.page.getByRole("button", { name: "Profile menu" }).click();
    await owner.page.getByRole("menuitem", { name: "Sign Out" }).click();
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Stay" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(() => saveButton(owner.page).textContent()).toBe("Save (1)");
    expect(new URL(owner.page.url()).pathname).toBe(`${path}/inspect`);
    await owner.page
      .getByRole("navigation", { name: "Review mode" })
      .getByRole("link", { name: "Comment" })
      .click();
    await dialog.getByRole("button", { name: "Exit without saving" }).click();
    await owner.page.waitForURL((url) => url.pathname === `${path}/comment`);
    const remaining = (await owner.api.get(`/api/versions/${versionId}/changes`)).body.data as {
      id: string;
      isResolved: boolean;
    }[];
    expect(remaining).toHaveLength(4);

    // Once every edit is resolved, the page says so.
    for (const change of remaining.filter((entry) => !entry.isResolved))
      expect((await owner.api.patch(`/api/changes/${change.id}`, { isResolved: true })).status).toBe(200);
    await owner.page.goto(`${path}/inspect?activity=true`);
    await owner.page.getByText("Every suggested edit on this page is resolved.").waitFor();
  });
});
