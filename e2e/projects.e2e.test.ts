import { MESSAGES, PROJECT_MESSAGES, pageAddedMessage, SHARING_MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../apps/server/src/db/schema/index.ts";
import { signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { setLimits } from "../apps/server/src/testing/test-app.ts";
import { type E2E, startE2E, uniqueEmail } from "./harness.ts";
import { newProject, PASSWORD, shot, signedIn, twoPagePdf } from "./helpers.ts";

let e2e: E2E;

const png = (width = 640, height = 400, background = "#e5383b") =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

beforeAll(async () => {
  // The free plan's limits, texts and expiry are part of these journeys.
  e2e = await startE2E({ config: { captureWorker: true, plansEnabled: true } });
});

afterAll(() => e2e.close());

describe("projects", () => {
  it("lists, filters, sorts, renames, archives and deletes projects", async () => {
    const { page, api } = await signedIn(e2e, "lists");
    // Room for three website projects (the free plan has one), still limited: the webapp one expires.
    await setLimits(e2e.app, api, { web: { projects: 3, pages: 5 }, browse: { projects: 2, pages: 5 } });
    await newProject(api, "Alpha site");
    // Web apps come with a paid plan (SPEC §6): made while the user holds Standard, which then ends.
    const uid = (await api.get("/api/me")).body.data.uid as string;
    const privilege = (value: string | null) =>
      e2e.app.ctx.database.db.update(users).set({ privilege: value }).where(eq(users.id, uid));
    await privilege("standard");
    await newProject(api, "Beta app", "webapp");
    await privilege(null);
    await newProject(api, "Gamma slides", "image");
    await page.reload();
    const list = page.getByRole("list", { name: "Projects" });
    await list.getByRole("heading", { name: /Gamma slides/ }).waitFor();
    await expect.poll(() => list.getByRole("listitem").count()).toBe(3);
    await list
      .getByRole("listitem")
      .filter({ hasText: "Beta app" })
      .getByText(/^Expires in \d+h$/)
      .waitFor();
    await list.getByRole("listitem").filter({ hasText: "Alpha site" }).getByText("Free Plan").waitFor();
    await list.getByRole("listitem").filter({ hasText: "Alpha site" }).getByText("Owner").waitFor();

    // Sort by name, then filter.
    await page.getByLabel("Sort projects").selectOption("title");
    await expect
      .poll(() => list.getByRole("heading").allInnerTexts())
      .toEqual(["Alpha site", "Beta app", "Gamma slides"]);
    await page.getByLabel("Filter projects").fill("bet");
    await expect.poll(() => list.getByRole("heading").allInnerTexts()).toEqual(["Beta app"]);
    await page.getByLabel("Filter projects").fill("zzz");
    await page.getByRole("heading", { name: "No projects match “zzz”" }).waitFor();
    await page.getByLabel("Filter projects").fill("");
    await list.getByRole("heading", { name: /Gamma slides/ }).waitFor();

    // The slide editor exists (SHIPPED_FEATURES): an Illustration list, and the New project modal offers the type.
    expect(await page.getByRole("link", { name: "Illustration", exact: true }).count()).toBe(1);
    await page.getByRole("button", { name: "New project" }).first().click();
    const modal = page.getByRole("dialog", { name: "New project" });
    await modal
      .getByRole("radio", { name: /Website/ })
      .first()
      .waitFor();
    expect(await modal.getByRole("radio", { name: /Illustration/ }).count()).toBe(1);
    await shot(page, "07b-new-project-types");
    // Focus is in the title field, where Escape stays (SPEC §4): the close button closes it.
    await modal.getByRole("button", { name: /Close/ }).click();
    await list.getByRole("heading", { name: /Beta app/ }).waitFor();
    await shot(page, "07-projects-list");

    // Rename by clicking the card title.
    await list.getByRole("button", { name: "Rename project: Alpha site" }).click();
    const titleInput = list.getByRole("textbox", { name: "Rename project" });
    await titleInput.fill("Alpha website");
    await titleInput.press("Enter");
    await list.getByRole("button", { name: "Rename project: Alpha website" }).waitFor();

    // A thumbnail from an image file.
    await list.getByRole("button", { name: "Project actions for Alpha website" }).click();
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("menuitem", { name: "Set thumbnail" }).click();
    await (await chooser).setFiles({
      name: "thumb.png",
      mimeType: "image/png",
      buffer: await png(800, 560, "#2f5fb3"),
    });
    await page.getByText(PROJECT_MESSAGES.thumbnailUpdated, { exact: true }).waitFor();
    await list.locator('img[src^="/files/thumbnails/"]').waitFor();

    // Archive → it moves to the archived list; unarchive it back.
    await list.getByRole("button", { name: "Project actions for Beta app" }).click();
    await page.getByRole("menuitem", { name: "Archive" }).click();
    await list.getByRole("heading", { name: /Beta app/ }).waitFor({ state: "detached" });
    await page.getByRole("link", { name: "Archived", exact: true }).click();
    await list.getByRole("heading", { name: /Beta app/ }).waitFor();
    await list.getByRole("button", { name: "Project actions for Beta app" }).click();
    await page.getByRole("menuitem", { name: "Unarchive" }).click();
    await page.getByRole("heading", { name: "No archived projects" }).waitFor();
    await page.getByRole("link", { name: "All projects", exact: true }).click();

    // Delete with a confirmation.
    await list.getByRole("button", { name: "Project actions for Gamma slides" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this project?" });
    await confirm.getByRole("button", { name: "Delete project" }).click();
    await page.getByText(PROJECT_MESSAGES.deleted, { exact: true }).waitFor();
    await list.getByRole("heading", { name: /Gamma slides/ }).waitFor({ state: "detached" });
    expect((await api.get("/api/projects")).body.data).toHaveLength(2);
  });

  it("sends a missing project back to the lists, and opens board and slide projects honestly", async () => {
    const { page, api } = await signedIn(e2e, "missing");
    await page.goto("/project/no-such-project");
    await page.getByText(MESSAGES.projectNotFound, { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname === "/projects");

    // Someone else's project: it exists, but not for this user.
    const stranger = await signUpVerified(
      e2e.baseUrl,
      e2e.app.inbox!,
      uniqueEmail("someone-else"),
      "correct horse battery",
    );
    const private_ = await newProject(stranger, "Not yours");
    await page.goto(`/project/${private_}`);
    await page.getByText(SHARING_MESSAGES.notAccessible, { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname === "/projects");

    // A bug-tracking project opens its board (an empty one, that says how to start)…
    const board = await newProject(api, "Bug hunt", "browse");
    await page.goto(`/project/${board}`);
    await page.getByRole("heading", { name: "Bug hunt" }).waitFor();
    await page.getByRole("heading", { name: "No lists yet" }).waitFor();
    // …and an illustration project opens the slide editor, started with a blank slide.
    const slides = await newProject(api, "Slides", "illustration");
    await page.goto(`/project/${slides}`);
    await page.getByRole("heading", { name: "Slides" }).waitFor();
    await page.getByRole("button", { name: "Slide 1" }).waitFor();
  });
});

describe("uploads", () => {
  it("adds an image and a PDF, both shown in the viewer", async () => {
    const { page, api } = await signedIn(e2e, "uploads");
    const projectId = await newProject(api, "Artwork", "image");
    await page.goto(`/project/${projectId}`);

    await page
      .getByLabel("Upload image or PDF")
      .setInputFiles({ name: "poster.png", mimeType: "image/png", buffer: await png(1600, 900) });
    await page.getByText(pageAddedMessage(1, 1), { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname.endsWith("/comment"));
    const image = page.getByRole("img", { name: "poster" });
    await image.waitFor();
    await expect.poll(() => image.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(1600);
    // Scaled to fit the width of the stage.
    expect(await image.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThan(1280);
    await shot(page, "08-image-view");

    // A new image version of the same page opens in its comment view.
    await page.getByRole("button", { name: /^Versions: Version 1/ }).click();
    await page
      .getByLabel("Upload new version")
      .setInputFiles({ name: "poster-2.png", mimeType: "image/png", buffer: await png(800, 600, "#1f7a4d") });
    await page.getByRole("button", { name: /^Versions: Version 2/ }).waitFor();
    await expect.poll(() => image.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(800);

    await page.getByRole("link", { name: "Back to project" }).click();
    await page.getByLabel("Upload image or PDF").setInputFiles({
      name: "brief.pdf",
      mimeType: "application/pdf",
      buffer: twoPagePdf(),
    });
    await page.getByText(pageAddedMessage(1, 1), { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname.endsWith("/comment"));
    await page.locator('canvas[aria-label="Page 1"][data-rendered="true"]').waitFor();
    await page.locator('canvas[aria-label="Page 2"][data-rendered="true"]').waitFor();
    await page.getByText("Page 2", { exact: true }).waitFor();
    const size = await page.getByRole("img", { name: "Page 1" }).evaluate((el) => ({
      width: (el as HTMLCanvasElement).width,
      height: (el as HTMLCanvasElement).height,
    }));
    expect(size.width).toBeGreaterThan(0);
    expect(size.width / size.height).toBeCloseTo(1.5, 1);
    await shot(page, "09-pdf-view");

    await page.getByRole("link", { name: "Back to project" }).click();
    const pages = page.getByRole("list", { name: "Pages of this project" });
    await pages.getByText("PDF", { exact: true }).waitFor();
    await pages.getByText("image", { exact: true }).waitFor();

    // Deleting an uploaded page says 'File deleted.'.
    await pages.getByRole("button", { name: "Delete file brief" }).click();
    await page
      .getByRole("dialog", { name: "Delete this file?" })
      .getByRole("button", { name: "Delete file" })
      .click();
    await page.getByText(PROJECT_MESSAGES.fileDeleted, { exact: true }).waitFor();
    await pages.getByText("brief").waitFor({ state: "detached" });
  });

  it("refuses a file over 5 MB before uploading it", async () => {
    const { page, api } = await signedIn(e2e, "huge");
    const projectId = await newProject(api, "Big files", "image");
    await page.goto(`/project/${projectId}`);
    await page.getByLabel("Upload image or PDF").setInputFiles({
      name: "huge.png",
      mimeType: "image/png",
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    await page.getByText(MESSAGES.maxFileSize, { exact: true }).waitFor();
    expect((await api.get(`/api/projects/${projectId}`)).body.data.pages).toHaveLength(0);
    await page.getByText("No pages yet").first().waitFor();
  });

  it("offers unlimited projects to a free user, and shows the plan's limit when they create a second", async () => {
    const { page, api } = await signedIn(e2e, "one-project");
    await page.goto("/projects");
    const upsell = page.getByText("Get unlimited projects.");
    await upsell.waitFor();
    expect(await page.getByRole("link", { name: "Upgrade now" }).getAttribute("href")).toBe("/upgrade");
    await newProject(api, "The only one");

    await page.getByRole("button", { name: "New project" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New project" });
    await dialog.getByLabel("Project title").fill("One too many");
    await dialog.getByRole("button", { name: "Create project" }).click();
    const alert = dialog.getByRole("alert");
    await alert.getByText("Your plan allows 1 website project. Upgrade to add more.").waitFor();
    await alert.getByRole("link", { name: "Upgrade now" }).waitFor();
    await shot(page, "10a-project-limit");
    expect((await api.get("/api/projects?list=all")).body.data).toHaveLength(1);
    await alert.getByRole("link", { name: "Upgrade now" }).click();
    await page.waitForURL((url) => url.pathname === "/upgrade");
  });

  it("shows the upgrade prompt at the page limit, from the count and from the server's 402", async () => {
    const { page, api } = await signedIn(e2e, "limit");
    const projectId = await newProject(api, "Full house", "image");
    for (let i = 0; i < 4; i++) {
      const added = await api.upload(`/api/projects/${projectId}/uploads`, {
        name: `shot-${i}.png`,
        type: "image/png",
        bytes: await png(40 + i, 40),
      });
      expect(added.status).toBe(201);
    }
    await page.goto(`/project/${projectId}`);
    await page.getByText("4 / 5").waitFor();

    // Someone else fills the last slot; this tab still shows the form and learns it from the server.
    await api.upload(`/api/projects/${projectId}/uploads`, {
      name: "last.png",
      type: "image/png",
      bytes: await png(50, 50),
    });
    await page.getByLabel("Page URL").fill("https://example.com/pricing");
    await page.getByRole("button", { name: "Add page", exact: true }).click();
    const prompt = page.getByRole("dialog", {
      name: "You have reached the limit of 5 pages on the Free Plan",
    });
    await prompt.getByRole("link", { name: "Upgrade" }).waitFor();
    await shot(page, "10-upgrade-modal");
    await prompt.getByRole("button", { name: "Not now" }).click();

    await page.reload();
    await page.getByText("You have reached the limit of 5 pages on the Free Plan").waitFor();
    await page.getByText("Limit reached").waitFor();
    expect(await page.getByLabel("Page URL").count()).toBe(0);
    await shot(page, "11-limit-reached");
  });
});

describe("abilities", () => {
  it("shows a viewer no editing control", async () => {
    const owner = await signUpVerified(e2e.baseUrl, e2e.app.inbox!, uniqueEmail("owner"), PASSWORD);
    const projectId = await newProject(owner, "Read only");
    const upload = await owner.upload(`/api/projects/${projectId}/uploads`, {
      name: "mockup.png",
      type: "image/png",
      bytes: await png(),
    });
    const { pageId, versionId } = upload.body.data;
    const { page, email } = await signedIn(e2e, "viewer");
    const shared = await owner.post(`/api/projects/${projectId}/members`, { email, access: "view" });
    expect(shared.status).toBeLessThan(300);

    await page.reload();
    const card = page.getByRole("list", { name: "Projects" }).getByRole("listitem");
    await card.getByText("View access").waitFor();
    expect(await card.getByRole("button", { name: /Rename project/ }).count()).toBe(0);
    await card.getByRole("button", { name: "Project actions for Read only" }).click();
    await expect.poll(() => page.getByRole("menuitem").allInnerTexts()).toEqual(["Open"]);
    await page.keyboard.press("Escape");

    await page.goto(`/project/${projectId}`);
    await page.getByRole("heading", { name: "mockup" }).waitFor();
    expect(await page.getByLabel("Page URL").count()).toBe(0);
    expect(await page.getByLabel("Upload image or PDF").count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Delete/ }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Rename/ }).count()).toBe(0);

    await page.goto(`/project/${projectId}/${pageId}/${versionId}/comment`);
    await page.getByRole("img", { name: "mockup" }).waitFor();
    await page.getByRole("button", { name: /^Versions: Version 1/ }).click();
    const panel = page.getByRole("complementary", { name: "Versions" });
    await panel.getByRole("link", { name: /Version 1/ }).waitFor();
    // A viewer may close the panel and copy a version's external link, nothing else.
    await expect
      .poll(() =>
        panel.getByRole("button").evaluateAll((els) => els.map((el) => el.getAttribute("aria-label"))),
      )
      .toEqual(["Close versions", "Copy external link to Version 1"]);
    expect(await page.getByLabel("Upload new version").count()).toBe(0);
  });
});
