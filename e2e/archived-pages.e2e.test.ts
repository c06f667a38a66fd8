import { PAGE_ARCHIVE_MESSAGES, previewWidth } from "@redline/shared";
import type { Locator, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E } from "./harness.ts";
import { newProject, shot, signedIn } from "./helpers.ts";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(() => e2e.close());

const COLOURS = ["#e5383b", "#2f5fb3", "#1f7a4d", "#b36b00"];

async function upload(api: ApiClient, projectId: string, name: string, index: number): Promise<string> {
  const bytes = await sharp({
    create: { width: 1000, height: 700, channels: 3, background: COLOURS[index % COLOURS.length]! },
  })
    .png()
    .toBuffer();
  const added = await api.upload(`/api/projects/${projectId}/uploads`, {
    name: `${name}.png`,
    type: "image/png",
    bytes,
  });
  expect(added.status).toBe(201);
  return added.body.data.pageId as string;
}

const cardWidth = (card: Locator) => card.evaluate((el) => Number.parseFloat(getComputedStyle(el).width));

async function pagesListTitles(page: Page): Promise<string[]> {
  return page
    .getByRole("list", { name: "Pages of this project" })
    .locator(".page-item__title")
    .allInnerTexts();
}

describe("archived pages", () => {
  it("archives a page out of the list and the grid, finds it under Archived, and unarchives it", async () => {
    const { page, api } = await signedIn(e2e, "archiver");
    const projectId = await newProject(api, "Launch site");
    await upload(api, projectId, "home", 0);
    const pricingId = await upload(api, projectId, "pricing", 1);
    await upload(api, projectId, "about", 2);

    await page.goto(`/project/${projectId}`);
    await expect.poll(() => pagesListTitles(page)).toEqual(["home", "pricing", "about"]);
    await page.getByRole("link", { name: "Archived pages (0)" }).waitFor();

    // Archive from the pages list: it leaves the list and the grid.
    await page.getByRole("button", { name: "Archive file pricing" }).click();
    await page.getByText(PAGE_ARCHIVE_MESSAGES.archived, { exact: true }).waitFor();
    await expect.poll(() => pagesListTitles(page)).toEqual(["home", "about"]);
    await page.getByRole("link", { name: "All pages", exact: true }).click();
    const grid = page.getByRole("list", { name: "All pages" });
    await expect.poll(() => grid.getByRole("heading").allInnerTexts()).toEqual(["home", "about"]);

    // Archive a second one from its card.
    await grid.getByRole("button", { name: "Archive file about" }).click();
    await grid.getByRole("heading", { name: "about" }).waitFor({ state: "detached" });
    await shot(page, "30-all-pages-grid");

    // Both are under Archived, and can be opened.
    await page.getByRole("link", { name: "Archived pages (2)" }).click();
    await page.waitForURL((url) => url.pathname === `/project/${projectId}/archived`);
    const archived = page.getByRole("list", { name: "Archived pages" });
    await expect.poll(() => archived.getByRole("heading").allInnerTexts()).toEqual(["pricing", "about"]);
    await shot(page, "31-archived-pages");
    await archived.getByRole("link", { name: "Open pricing" }).click();
    await page.waitForURL((url) => url.pathname === `/project/${projectId}/${pricingId}`);
    await page.getByRole("heading", { name: "pricing" }).waitFor();
    await page.getByText(/This page is archived/).waitFor();
    await shot(page, "35-archived-page-opened");
    await page.getByRole("link", { name: "See archived pages" }).click();

    // Unarchive brings each back to the pages list; the list ends empty.
    await archived.getByRole("button", { name: "Unarchive file pricing" }).click();
    await page.getByText(PAGE_ARCHIVE_MESSAGES.unarchived, { exact: true }).waitFor();
    await archived.getByRole("heading", { name: "pricing" }).waitFor({ state: "detached" });
    await archived.getByRole("button", { name: "Unarchive file about" }).click();
    await page.getByRole("heading", { name: "No archived pages" }).waitFor();
    await shot(page, "32-no-archived-pages");
    await expect.poll(() => pagesListTitles(page)).toEqual(["home", "pricing", "about"]);
    const pages = (await api.get(`/api/projects/${projectId}`)).body.data.pages as { isArchived: boolean }[];
    expect(pages.map((entry) => entry.isArchived)).toEqual([false, false, false]);
  });

  it("shows archived pages to a viewer, without archive or unarchive controls", async () => {
    const owner = await signedIn(e2e, "archive-owner");
    const projectId = await newProject(owner.api, "Read only archive");
    await upload(owner.api, projectId, "kept", 0);
    const gone = await upload(owner.api, projectId, "gone", 1);
    expect((await owner.api.patch(`/api/pages/${gone}`, { isArchived: true })).status).toBe(200);
    const viewer = await signedIn(e2e, "archive-viewer", "Vera Viewer");
    const shared = await owner.api.post(`/api/projects/${projectId}/members`, {
      email: viewer.email,
      access: "view",
    });
    expect(shared.status).toBe(201);

    const { page } = viewer;
    await page.goto(`/project/${projectId}`);
    await page.getByRole("heading", { name: "kept" }).waitFor();
    await expect.poll(() => pagesListTitles(page)).toEqual(["kept"]);
    await page.getByRole("link", { name: "Archived pages (1)" }).click();
    await page.getByRole("list", { name: "Archived pages" }).getByRole("heading", { name: "gone" }).waitFor();
    expect(await page.getByRole("button", { name: /archive/i }).count()).toBe(0);
  });
});

describe("page card size", () => {
  it("sizes the cards by the preview width table, remembers the size, and scales it when compact", async () => {
    const { page, api } = await signedIn(e2e, "card-size");
    const projectId = await newProject(api, "Card sizes");
    await upload(api, projectId, "landing", 0);
    await upload(api, projectId, "checkout", 3);

    await page.goto(`/project/${projectId}?view=grid`);
    const grid = page.getByRole("list", { name: "All pages" });
    const card = grid.getByRole("listitem").first();
    await card.waitFor();
    const slider = page.getByRole("slider", { name: "Card size" });
    expect(await slider.inputValue()).toBe("10");
    expect(await cardWidth(card)).toBe(previewWidth(10, false));

    await slider.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => cardWidth(card)).toBe(previewWidth(15, false));
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => cardWidth(card)).toBe(previewWidth(25, false));
    expect(await slider.getAttribute("aria-valuetext")).toBe("740 px wide");
    await shot(page, "33-card-size-largest");

    // Remembered across a reload.
    await page.reload();
    await card.waitFor();
    await expect.poll(() => slider.inputValue()).toBe("25");
    await expect.poll(() => cardWidth(card)).toBe(previewWidth(25, false));

    // Below the 979 px mobile breakpoint the table is scaled by 10/12.
    await page.setViewportSize({ width: 900, height: 800 });
    await slider.focus();
    await page.keyboard.press("Home");
    await expect.poll(() => cardWidth(card)).toBe(previewWidth(10, true));
    await shot(page, "34-card-size-compact");
  });
});
