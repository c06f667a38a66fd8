/**
 * Comment mode in a real browser, against the real app, its capture worker and its realtime socket:
 * pinning a comment on an element of a captured page, replying, mentioning, attaching and resolving
 * while a second reviewer in another browser sees each change without reloading ("N new" while they
 * type); copied comments landing on the same elements after the site changed; a deep link; comments on
 * an image and a PDF page; a viewer who cannot comment; a guest of the public link, who sees the
 * project's people's comments and replies arrive live through the guest socket (no poll, no reload); a
 * list long enough to mount only the cards in view, a link to a comment far down and the way back to it.
 */
import type http from "node:http";
import type { Frame, Locator, Request } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E } from "./harness.ts";
import {
  addMember,
  capturedProject,
  newProject,
  openSnapshot,
  overlayMode,
  serveSite,
  shot,
  signedIn,
  twoPagePdf,
  waitForCapture,
} from "./helpers.ts";

let e2e: E2E;
let site: { url: string; close(): Promise<void>; setRelease(release: 1 | 2): void };

/**
 * A product page in two releases. Release 2 adds a banner on top, moves the buy button into the
 * details section inside a new wrapper, and renames its hashed class — the kind of change a
 * querySelector-only anchor gets wrong. A team page: in release 2 Alice has left and Carol joined, so
 * a comment on Alice's "Remove" button has no certain home.
 */
async function startSite(): Promise<typeof site> {
  let release: 1 | 2 = 1;
  const css = `
    body { margin: 0; font-family: sans-serif; }
    header { padding: 24px; background: #18181b; color: white; }
    .banner { padding: 12px 24px; background: #fde68a; }
    section { padding: 32px 24px; min-height: 240px; }
    .hero { background: #f4f4f5; }
    button { padding: 12px 28px; font-size: 18px; }`;
  const page = () =>
    release === 1
      ? `<header><h1>Acme shoes</h1></header><main>` +
        `<section class="hero"><p class="lead">Light and fast.</p><button class="buy-a1b2c3" type="button">Buy now</button></section>` +
        `<section class="details"><h2>Details</h2><p>Made of recycled materials.</p></section></main>`
      : `<div class="banner">Free shipping this week</div><header><h1>Acme shoes</h1></header><main>` +
        `<section class="hero"><p class="lead">Light and fast.</p></section>` +
        `<section class="details"><h2>Details</h2><p>Made of recycled materials.</p>` +
        `<div class="actions"><button class="buy-z9y8x7" type="button">Buy now</button></div></section></main>`;
  const listener: http.RequestListener = (request, response) => {
    if (request.url === "/style.css") return response.writeHead(200, { "content-type": "text/css" }).end(css);
    if (request.url === "/team")
      return response
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><html><head><title>Team</title><link rel="stylesheet" href="/style.css"></head><body>` +
            `<header><h1>Acme shoes</h1></header><main><section><table><tbody>${(release === 1
              ? ["Alice", "Bob"]
              : ["Bob", "Carol"]
            )
              .map(
                (name) =>
                  `<tr><td>${name}</td><td>${name.toLowerCase()}@example.com</td><td><button type="button">Remove</button></td></tr>`,
              )
              .join("")}</tbody></table></section></main></body></html>`,
        );
    if (request.url === "/product")
      return response
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><html><head><title>Acme shoes</title><link rel="stylesheet" href="/style.css"></head><body>${page()}</body></html>`,
        );
    response.writeHead(404).end();
  };
  const served = await serveSite(listener);
  return {
    ...served,
    setRelease: (next) => {
      release = next;
    },
  };
}

beforeAll(async () => {
  [e2e, site] = await Promise.all([startE2E({ config: { captureWorker: true } }), startSite()]);
});

afterAll(async () => {
  await e2e?.close();
  await site?.close();
});

/** A project with the fixture's product page captured; returns where its comment view is. */
function productProject(api: ApiClient) {
  site.setRelease(1);
  return capturedProject(api, `${site.url}/product`);
}

/** The pin's centre is the point the comment was made on: it must fall inside the element. */
async function expectPinOn(frame: Frame, pinName: string, element: Locator): Promise<void> {
  const pin = frame.getByRole("button", { name: pinName, exact: true });
  await pin.waitFor();
  await expect
    .poll(async () => {
      const [pinBox, box] = await Promise.all([pin.boundingBox(), element.boundingBox()]);
      if (!pinBox || !box) return false;
      const x = pinBox.x + pinBox.width / 2;
      const y = pinBox.y + pinBox.height / 2;
      return x >= box.x && x <= box.x + box.width && y >= box.y && y <= box.y + box.height;
    })
    .toBe(true);
}

describe("comments on a captured page", () => {
  it("pins, mentions, attaches, replies and resolves, and another reviewer sees each change live", {
    timeout: 180_000,
  }, async () => {
    const owner = await signedIn(e2e, "pin-owner", "Ada Lovelace");
    const reviewer = await signedIn(e2e, "pin-reviewer", "Bob Builder");
    const { projectId, versionId, path } = await productProject(owner.api);
    await addMember(owner.api, projectId, reviewer.email, "comment");
    const bob = (await reviewer.api.get("/api/me")).body.data.uid as string;

    const ownerFrame = await openSnapshot(owner.page, `${path}/comment`, "comment");
    const reviewerFrame = await openSnapshot(reviewer.page, `${path}/comment`, "comment");
    await reviewer.page.getByText("No comments yet").waitFor();

    // Ada clicks the buy button: the composer opens; she mentions Bob and attaches a file.
    await ownerFrame.locator("button.buy-a1b2c3").click();
    const composer = owner.page.getByRole("region", { name: "New comment" });
    await composer.getByText("New comment on ‹button›").waitFor();
    const box = composer.getByLabel("Write a comment");
    await box.fill("Make this bigger, @Bo");
    await owner.page.getByRole("option", { name: "Bob Builder" }).waitFor();
    await box.press("Enter");
    await expect.poll(() => box.inputValue()).toBe("Make this bigger, @Bob Builder ");
    await composer.getByLabel("Attach files").setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("bigger, bolder"),
    });
    await composer.getByRole("list", { name: "Attached files" }).getByText("notes.txt").waitFor();
    await shot(owner.page, "comments-01-composer");
    // From here on neither tab reads anything from the API again: every event carries its comment,
    // and the notifications it causes carry theirs (the bell counts them without asking).
    const reads: { owner: string[]; reviewer: string[] } = { owner: [], reviewer: [] };
    const apiRead = (request: Request) =>
      request.method() === "GET" && new URL(request.url()).pathname.startsWith("/api/")
        ? [new URL(request.url()).pathname]
        : [];
    owner.page.on("request", (request) => reads.owner.push(...apiRead(request)));
    reviewer.page.on("request", (request) => reads.reviewer.push(...apiRead(request)));
    await composer.getByRole("button", { name: "Comment", exact: true }).click();

    await owner.page.getByRole("heading", { name: "Comment 1" }).waitFor();
    await expectPinOn(ownerFrame, "Comment 1", ownerFrame.locator("button.buy-a1b2c3"));
    const stored = (await owner.api.get(`/api/versions/${versionId}/comments`)).body.data;
    expect(stored).toHaveLength(1);
    expect(stored[0].thread[0].comment).toBe(`Make this bigger, {@${bob}}`);
    expect(stored[0].thread[0].attachments[0]).toMatchObject({ name: "notes.txt", size: 14 });
    const commentId = stored[0].id as string;
    await shot(owner.page, "comments-02-thread");

    // Bob sees it without reloading: in the list, and as a pin on the same element.
    const bobList = reviewer.page.getByRole("list", { name: "Comments" });
    await bobList.getByRole("button", { name: "Comment 1 by Ada Lovelace" }).waitFor();
    await expectPinOn(reviewerFrame, "Comment 1", reviewerFrame.locator("button.buy-a1b2c3"));
    await bobList.getByText("Make this bigger, @Bob Builder").waitFor();

    // Bob opens it from the pin, downloads the attachment and replies.
    await reviewerFrame.getByRole("button", { name: "Comment 1", exact: true }).click();
    await reviewer.page.getByRole("heading", { name: "Comment 1" }).waitFor();
    await expect.poll(() => new URL(reviewer.page.url()).searchParams.get("id")).toBe(commentId);
    const download = reviewer.page.getByRole("link", { name: /notes\.txt/ });
    const file = await reviewer.page.request.get((await download.getAttribute("href"))!);
    expect(await file.text()).toBe("bigger, bolder");
    await reviewer.page.getByLabel("Reply").fill("On it");
    await reviewer.page.getByRole("button", { name: "Reply", exact: true }).click();
    // The reply's own event can draw it before the POST answers and the box empties.
    await expect.poll(() => reviewer.page.getByLabel("Reply").inputValue()).toBe("");
    await reviewer.page.getByText("On it", { exact: true }).waitFor();
    await owner.page.getByText("On it", { exact: true }).waitFor();

    // Ada resolves: Bob sees it resolved.
    await owner.page.getByRole("button", { name: "Resolve" }).click();
    await owner.page.getByRole("button", { name: "Reopen" }).waitFor();
    await reviewer.page
      .getByRole("region", { name: "Comment 1" })
      .getByText("Resolved", { exact: true })
      .waitFor();
    await shot(reviewer.page, "comments-03-resolved-live");
    expect(reads).toEqual({ owner: [], reviewer: [] });

    // While Bob writes a new comment, Ada's new one waits as "1 new" instead of appearing under him.
    await reviewer.page.getByRole("button", { name: "Back to all comments" }).click();
    await reviewerFrame.getByRole("heading", { name: "Details" }).click();
    await reviewer.page.getByLabel("Write a comment").fill("The heading is too small");
    await ownerFrame.getByText("Light and fast.").click();
    await owner.page.getByLabel("Write a comment").fill("Tagline needs punch");
    await owner.page.getByRole("button", { name: "Comment", exact: true }).click();
    await owner.page.getByRole("heading", { name: "Comment 2" }).waitFor();
    const showNew = reviewer.page.getByRole("button", { name: "Show 1 new comment" });
    await showNew.waitFor();
    expect(await reviewerFrame.getByRole("button", { name: "Comment 2", exact: true }).count()).toBe(0);
    await shot(reviewer.page, "comments-04-n-new");
    await showNew.click();
    await reviewerFrame.getByRole("button", { name: "Comment 2", exact: true }).waitFor();
    await reviewer.page.getByRole("button", { name: "Comment", exact: true }).click();
    await reviewer.page.getByRole("heading", { name: "Comment 3" }).waitFor();
    await expectPinOn(ownerFrame, "Comment 3", ownerFrame.getByRole("heading", { name: "Details" }));

    // A deep link opens the comment and brings its pin into view.
    const linked = await e2e.newPage();
    await linked.context().addCookies(await owner.page.context().cookies());
    const linkedFrame = await openSnapshot(linked, `${path}/comment?id=${commentId}`);
    await linked.getByRole("heading", { name: "Comment 1" }).waitFor();
    await linked.getByText("On it", { exact: true }).waitFor();
    await expect
      .poll(() =>
        linkedFrame.getByRole("button", { name: "Comment 1", exact: true }).getAttribute("aria-pressed"),
      )
      .toBe("true");
  });

  it("re-anchors copied comments on the same elements after the site changed", {
    timeout: 180_000,
  }, async () => {
    site.setRelease(1);
    const owner = await signedIn(e2e, "copy-owner");
    const { pageId, path } = await productProject(owner.api);
    const frame = await openSnapshot(owner.page, `${path}/comment`, "comment");
    const post = async (target: Locator, text: string, number: number) => {
      await target.click();
      await owner.page.getByLabel("Write a comment").fill(text);
      await owner.page.getByRole("button", { name: "Comment", exact: true }).click();
      await owner.page.getByRole("heading", { name: `Comment ${number}` }).waitFor();
      await owner.page.getByRole("button", { name: "Back to all comments" }).click();
    };
    await post(frame.locator("button.buy-a1b2c3"), "Buy button", 1);
    await post(frame.getByRole("heading", { name: "Details" }), "Details heading", 2);
    await post(frame.getByText("Light and fast."), "Tagline", 3);

    site.setRelease(2);
    const next = await owner.api.post(`/api/pages/${pageId}/versions`, { copyUnresolvedComments: true });
    expect(next.status).toBeLessThan(300);
    const nextVersion = next.body.data.id as string;
    await waitForCapture(owner.api, nextVersion);

    const moved = await openSnapshot(owner.page, path.replace(/[^/]+$/, `${nextVersion}/comment`));
    await moved.locator(".banner").waitFor();
    await expectPinOn(moved, "Comment 1", moved.locator("button.buy-z9y8x7"));
    await expectPinOn(moved, "Comment 2", moved.getByRole("heading", { name: "Details" }));
    await expectPinOn(moved, "Comment 3", moved.getByText("Light and fast."));
    await shot(owner.page, "comments-05-copied");
    // The outcome of re-anchoring is saved with each copied comment.
    await expect
      .poll(async () =>
        (
          (await owner.api.get(`/api/versions/${nextVersion}/comments`)).body.data as {
            anchorStatus: string;
          }[]
        ).map((comment) =>
          comment.anchorStatus === "exact" || comment.anchorStatus === "fuzzy"
            ? "found"
            : comment.anchorStatus,
        ),
      )
      .toEqual(["found", "found", "found"]);
  });
});

describe("a copied comment that needs review", () => {
  it("steps through the candidate elements and keeps the pin on the one chosen", {
    timeout: 180_000,
  }, async () => {
    site.setRelease(1);
    const owner = await signedIn(e2e, "review-owner");
    const team = await capturedProject(owner.api, `${site.url}/team`, "Team");
    const frame = await openSnapshot(owner.page, `${team.path}/comment`, "comment");
    await frame.getByRole("row", { name: /Alice/ }).getByRole("button", { name: "Remove" }).click();
    await owner.page.getByLabel("Write a comment").fill("Ask Alice first");
    await owner.page.getByRole("button", { name: "Comment", exact: true }).click();
    await owner.page.getByRole("heading", { name: "Comment 1" }).waitFor();

    site.setRelease(2);
    const next = await owner.api.post(`/api/pages/${team.pageId}/versions`, { copyUnresolvedComments: true });
    const nextVersion = next.body.data.id as string;
    await waitForCapture(owner.api, nextVersion);
    const nextPath = `/project/${team.projectId}/${team.pageId}/${nextVersion}/comment`;
    const moved = await openSnapshot(owner.page, nextPath);
    const panel = owner.page.locator("aside.activity");
    await panel.getByText("Needs review").waitFor();
    await panel.getByText("Candidate 1 of 2").waitFor();
    const removeOf = (name: string) => moved.getByRole("row", { name: new RegExp(name) }).getByRole("button");
    await expectPinOn(moved, "Comment 1", removeOf("Bob"));
    await shot(owner.page, "comments-08-needs-review");

    await panel.getByRole("button", { name: "Next candidate" }).click();
    await panel.getByText("Candidate 2 of 2").waitFor();
    await expectPinOn(moved, "Comment 1", removeOf("Carol"));
    await panel.getByRole("button", { name: "Keep here" }).click();
    await panel.getByText("Needs review").waitFor({ state: "detached" });

    // Saved on Carol's button for everyone: a reload finds it there for certain.
    await expect
      .poll(async () => {
        const comments = (await owner.api.get(`/api/versions/${nextVersion}/comments`)).body.data as {
          anchorStatus: string;
        }[];
        return comments.map((comment) => comment.anchorStatus);
      })
      .toEqual(["exact"]);
    const reloaded = await openSnapshot(owner.page, nextPath);
    await expectPinOn(
      reloaded,
      "Comment 1",
      reloaded.getByRole("row", { name: /Carol/ }).getByRole("button"),
    );
    await expect.poll(() => panel.getByText("Needs review").count()).toBe(0);
  });
});

describe("a long list of comments", () => {
  it("mounts only the cards in view, opens a comment far down by link and comes back to it", {
    timeout: 90_000,
  }, async () => {
    const { page, api } = await signedIn(e2e, "long-list");
    const projectId = await newProject(api, "Many comments", "image");
    const image = await sharp({ create: { width: 800, height: 2400, channels: 3, background: "#d9e2f2" } })
      .png()
      .toBuffer();
    const uploaded = await api.upload(`/api/projects/${projectId}/uploads`, {
      name: "long.png",
      type: "image/png",
      bytes: image,
    });
    const { pageId, versionId } = uploaded.body.data;
    const ids: string[] = [];
    for (let index = 0; index < 80; index++) {
      const created = await api.post(`/api/versions/${versionId}/comments`, {
        dotPosition: { x: 0.5, y: (index + 0.5) / 80 },
        deviceWidth: 1280,
        comment: `Note ${index + 1}`,
      });
      expect(created.status).toBe(201);
      ids.push(created.body.data.id);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/project/${projectId}/${pageId}/${versionId}/comment?id=${ids[74]}`);
    await page.getByRole("heading", { name: "Comment 75", exact: true }).waitFor();
    await expect
      .poll(() => page.getByRole("button", { name: "Comment 75", exact: true }).isVisible())
      .toBe(true);

    await page.getByRole("button", { name: "Back to all comments" }).click();
    const card = page.getByRole("button", { name: "Comment 75 by Ada Lovelace" });
    await expect.poll(() => card.evaluate((element) => element === document.activeElement)).toBe(true);
    const list = page.getByRole("list", { name: "Comments" });
    const box = (await card.boundingBox())!;
    const panel = (await page.locator(".activity__body").boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(panel.y);
    expect(box.y + box.height).toBeLessThanOrEqual(panel.y + panel.height);
    expect(await list.getByRole("listitem").count()).toBeLessThan(80);
    expect(await list.getByRole("button", { name: "Comment 1 by Ada Lovelace" }).count()).toBe(0);

    await page.keyboard.press("ArrowDown");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Comment 76 by Ada Lovelace");
    await page.keyboard.press("Home");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Comment 1 by Ada Lovelace");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Comment 1", exact: true }).waitFor();
  });
});

describe("comments on images and PDFs", () => {
  it("places a comment on an image and on the second page of a PDF", { timeout: 90_000 }, async () => {
    const { page, api } = await signedIn(e2e, "files");
    const projectId = await newProject(api, "Files", "image");
    const image = await sharp({ create: { width: 800, height: 500, channels: 3, background: "#2f5fb3" } })
      .png()
      .toBuffer();
    const uploadedImage = await api.upload(`/api/projects/${projectId}/uploads`, {
      name: "mock.png",
      type: "image/png",
      bytes: image,
    });
    const pdf = await api.upload(`/api/projects/${projectId}/uploads`, {
      name: "brief.pdf",
      type: "application/pdf",
      bytes: twoPagePdf(),
    });
    expect([uploadedImage.status, pdf.status]).toEqual([201, 201]);

    const imagePath = `/project/${projectId}/${uploadedImage.body.data.pageId}/${uploadedImage.body.data.versionId}/comment`;
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto(imagePath);
    const pick = page.getByRole("button", { name: "Add a comment on the image" });
    await pick.waitFor();
    const area = (await pick.boundingBox())!;
    await page.mouse.click(area.x + area.width * 0.25, area.y + area.height * 0.75);
    await page.getByLabel("Write a comment").fill("Darker blue here");
    await page.getByRole("button", { name: "Comment", exact: true }).click();
    await page.getByRole("heading", { name: "Comment 1" }).waitFor();
    const [imageComment] = (await api.get(`/api/versions/${uploadedImage.body.data.versionId}/comments`)).body
      .data;
    expect(imageComment.anchor).toBeNull();
    expect(imageComment.dotPosition.x).toBeCloseTo(0.25, 1);
    expect(imageComment.dotPosition.y).toBeCloseTo(0.75, 1);
    const pinBox = (await page.getByRole("button", { name: "Comment 1", exact: true }).boundingBox())!;
    expect(pinBox.x + pinBox.width / 2).toBeCloseTo(area.x + area.width * 0.25, -1);
    await shot(page, "comments-06-image");

    await page.goto(`/project/${projectId}/${pdf.body.data.pageId}/${pdf.body.data.versionId}/comment`);
    const pageTwo = page.getByRole("button", { name: "Add a comment on page 2" });
    await pageTwo.waitFor();
    await page.locator('canvas[aria-label="Page 2"][data-rendered="true"]').waitFor();
    // Its centre, clicked once its box is stable: a re-render at another width keeps data-rendered.
    await pageTwo.click();
    await page.getByText("New comment on page 2").waitFor();
    await page.getByLabel("Write a comment").fill("Typo on page two");
    await page.getByRole("button", { name: "Comment", exact: true }).click();
    await page.getByRole("heading", { name: "Comment 1" }).waitFor();
    const [pdfComment] = (await api.get(`/api/versions/${pdf.body.data.versionId}/comments`)).body.data;
    expect(pdfComment.pdfPage).toBe(2);
    await page.getByRole("button", { name: "Back to all comments" }).click();
    await page.getByRole("list", { name: "Comments" }).getByText("Page 2").waitFor();
    await shot(page, "comments-07-pdf");
  });
});

describe("who may comment", () => {
  it("shows a viewer the comments but no way to add one", { timeout: 120_000 }, async () => {
    const owner = await signedIn(e2e, "view-owner");
    const viewer = await signedIn(e2e, "viewer", "Vic Viewer");
    const { projectId, versionId, path } = await productProject(owner.api);
    await addMember(owner.api, projectId, viewer.email, "view");
    const made = await owner.api.post(`/api/versions/${versionId}/comments`, {
      dotPosition: { x: 0.5, y: 0.5 },
      deviceWidth: 1280,
      comment: "Owner's note",
    });
    expect(made.status).toBe(201);

    const frame = await openSnapshot(viewer.page, `${path}/comment`);
    await viewer.page
      .getByText("You can read the comments on this page. Your access does not let you add any.")
      .waitFor();
    await viewer.page.getByRole("list", { name: "Comments" }).getByText("Owner's note").waitFor();
    await frame.locator("button.buy-a1b2c3").click();
    await frame.getByRole("button", { name: "Comment 1", exact: true }).click();
    await viewer.page.getByRole("heading", { name: "Comment 1" }).waitFor();
    expect(await viewer.page.getByLabel("Write a comment").count()).toBe(0);
    expect(await viewer.page.getByLabel("Reply").count()).toBe(0);
    expect(await viewer.page.getByRole("button", { name: "Resolve" }).count()).toBe(0);
  });
});

describe("guests of the public link", () => {
  it("lets an anonymous visitor comment when the link allows it, and not otherwise", {
    timeout: 120_000,
  }, async () => {
    const owner = await signedIn(e2e, "link-owner");
    const { projectId, versionId } = await productProject(owner.api);
    expect(
      (await owner.api.patch(`/api/projects/${projectId}/sharing`, { public: true, canComment: true }))
        .status,
    ).toBe(200);

    const visitor = await e2e.newPage();
    await visitor.setViewportSize({ width: 1760, height: 1000 });
    // The guest socket's frames, and the guest's reads of the comment list.
    const frames: string[] = [];
    visitor.on("websocket", (socket) => {
      if (socket.url().includes("/api/realtime?guest"))
        socket.on("framereceived", ({ payload }) => frames.push(String(payload)));
    });
    const listPath = `/api/share/${projectId}/versions/${versionId}/comments`;
    let listReads = 0;
    visitor.on("request", (request) => {
      if (request.method() === "GET" && new URL(request.url()).pathname === listPath) listReads++;
    });
    await visitor.goto(`/share/${projectId}`);
    await visitor.getByRole("button", { name: "Continue as Anonymous" }).click();
    const iframe = visitor.locator('iframe[title="Page snapshot"]');
    await iframe.waitFor();
    const frame = (await (await iframe.elementHandle())!.contentFrame())!;
    await frame.getByRole("heading", { name: "Acme shoes" }).waitFor();
    await expect.poll(() => overlayMode(frame)).toBe("comment");
    await frame.locator("button.buy-a1b2c3").click();
    await visitor.getByLabel("Write a comment").fill("Love these shoes");
    await visitor.getByRole("button", { name: "Comment", exact: true }).click();
    await visitor.getByRole("heading", { name: "Comment 1" }).waitFor();
    await expectPinOn(frame, "Comment 1", frame.locator("button.buy-a1b2c3"));
    // The guest's avatar is a built-in one (an id, not a picture): drawn, never a broken <img>.
    await visitor.locator('.avatar[data-avatar="avatar-share-0"]').first().waitFor();
    expect(await visitor.locator('img[src^="avatar-"]').count()).toBe(0);
    await shot(visitor, "comments-08-guest");
    const [made] = (await owner.api.get(`/api/versions/${versionId}/comments`)).body.data;
    expect(made.thread[0].author).toMatchObject({ isGuest: true, displayName: "Anonymous" });
    // The guest's socket follows the link's comments: the owner's reply and new comment reach the open
    // view without a reload, well within the old 10 s poll, and without the list being read again.
    await expect
      .poll(() => frames.some((frame) => frame.includes('"guest.joined"') && frame.includes('"comments"')))
      .toBe(true);
    const readsBefore = listReads;
    expect((await owner.api.post(`/api/comments/${made.id}/replies`, { comment: "Thank you!" })).status).toBe(
      201,
    );
    await visitor.getByText("Thank you!", { exact: true }).waitFor({ timeout: 5_000 });
    await visitor.getByRole("button", { name: "Back to all comments" }).click();
    const welcome = { dotPosition: { x: 0.5, y: 0.2 }, deviceWidth: 1280, comment: "Welcome, guest" };
    expect((await owner.api.post(`/api/versions/${versionId}/comments`, welcome)).status).toBe(201);
    await visitor
      .getByRole("list", { name: "Comments" })
      .getByText("Welcome, guest")
      .waitFor({ timeout: 5_000 });
    expect(listReads).toBe(readsBefore);

    // Comments off: the guest still reads them, but cannot add any — in the page or through the API.
    await owner.api.patch(`/api/projects/${projectId}/sharing`, { canComment: false });
    await visitor.goto(`/share/${projectId}`);
    await visitor.getByRole("list", { name: "Comments" }).getByText("Love these shoes").waitFor();
    const again = (await (await visitor
      .locator('iframe[title="Page snapshot"]')
      .elementHandle())!.contentFrame())!;
    await again.getByRole("button", { name: "Comment 1", exact: true }).waitFor();
    await again.getByRole("heading", { name: "Details" }).click();
    expect(await visitor.getByLabel("Write a comment").count()).toBe(0);
    const refused = await visitor.request.post(`/api/share/${projectId}/versions/${versionId}/comments`, {
      headers: { "x-redline-guest": "public", origin: e2e.baseUrl },
      data: { dotPosition: { x: 0.5, y: 0.5 }, deviceWidth: 1280, comment: "Sneaky" },
    });
    expect(refused.status()).toBe(403);
  });
});

describe("new versions and comments", () => {
  it("updates all pages with their unresolved comments, and copies them on demand", {
    timeout: 120_000,
  }, async () => {
    const { page, api } = await signedIn(e2e, "update-all");
    const { projectId, pageId, versionId, path } = await productProject(api);
    await api.post(`/api/versions/${versionId}/comments`, {
      dotPosition: { x: 0.2, y: 0.2 },
      deviceWidth: 1280,
      comment: "Carry me over",
    });
    await page.goto(`/project/${projectId}/${pageId}`);
    await page.getByRole("button", { name: "Update all pages" }).click();
    const dialog = page.getByRole("dialog", { name: "Update all pages to latest version" });
    await expect
      .poll(() => dialog.getByLabel("Copy unresolved comments to the new versions").isChecked())
      .toBe(true);
    await dialog.getByRole("button", { name: "Update all pages" }).click();
    await page.getByText("Updating 1 page...").waitFor();
    const versions = async () => (await api.get(`/api/projects/${projectId}`)).body.data.pages[0].versions;
    await expect.poll(async () => (await versions()).length).toBe(2);
    const second = (await versions())[1].id as string;
    const copied = (await api.get(`/api/versions/${second}/comments`)).body.data;
    expect(copied.map((comment: { thread: { comment: string }[] }) => comment.thread[0]!.comment)).toEqual([
      "Carry me over",
    ]);

    // A third version without the comments, then copied from the versions panel.
    await waitForCapture(api, second);
    const third = await api.post(`/api/pages/${pageId}/versions`, { copyUnresolvedComments: false });
    await waitForCapture(api, third.body.data.id);
    expect((await api.get(`/api/versions/${third.body.data.id}/comments`)).body.data).toHaveLength(0);
    await page.goto(path.replace(/[^/]+$/, `${third.body.data.id}/comment`));
    await page.getByText("No comments yet").waitFor();
    await page.getByRole("button", { name: "Versions: Version 3" }).click();
    await page.getByRole("button", { name: "Copy unresolved comments from previous version" }).click();
    await page.getByText("1 comment copied.").waitFor();
    await page.getByRole("button", { name: "Copy unresolved comments from previous version" }).click();
    await page.getByText("No unresolved comments found on previous version.").waitFor();
    await page.getByRole("button", { name: "Close versions" }).click();
    await page.getByRole("list", { name: "Comments" }).getByText("Carry me over").waitFor();
  });
});

describe("realtime reconnect", () => {
  it("catches up on what was said while the socket was down", { timeout: 120_000 }, async () => {
    const owner = await signedIn(e2e, "drop-owner");
    const { versionId, path } = await productProject(owner.api);
    // The server's "joined" reaching the tab: its socket is in the project's room.
    const joined = new Promise<void>((resolve) => {
      owner.page.on("websocket", (socket) =>
        socket.on("framereceived", ({ payload }) => {
          if (String(payload).includes('"type":"joined"')) resolve();
        }),
      );
    });
    await openSnapshot(owner.page, `${path}/comment`);
    await owner.page.getByText("No comments yet").waitFor();
    // Let the tab's socket join its room, then cut every socket from the server's side.
    await expect.poll(() => e2e.app.app.websocketServer.clients.size).toBeGreaterThan(0);
    await joined;
    for (const client of e2e.app.app.websocketServer.clients) client.terminate();
    // Said while the tab is away (it retries after 500 ms): no event can reach it.
    const made = await owner.api.post(`/api/versions/${versionId}/comments`, {
      dotPosition: { x: 0.5, y: 0.5 },
      deviceWidth: 1280,
      comment: "Posted while you were away",
    });
    expect(made.status).toBe(201);
    await owner.page
      .getByRole("list", { name: "Comments" })
      .getByText("Posted while you were away")
      .waitFor();
  });
});
