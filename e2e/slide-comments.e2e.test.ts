/**
 * Comments on slides in a real browser (issue #32): one editor pins a comment to an image on the second
 * slide and moves the image; the other editor, on the same deck, finds the pin where the image now is
 * (clicking it opens the thread) and answers; `?id=` opens that slide and that comment.
 */
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import type { ApiClient } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E } from "./harness.ts";
import { addMember, newProject, shot, signedIn } from "./helpers.ts";

type ImageJson = { kind: string; x: number; y: number; width: number; height: number };
type DeckJson = Record<string, { id: string; position: number; objects: Record<string, ImageJson> }>;

async function deckOf(api: ApiClient, projectId: string): Promise<DeckJson> {
  const { body } = await api.get(`/api/projects/${projectId}/deck`);
  const doc = new Y.Doc();
  Y.applyUpdate(doc, new Uint8Array(Buffer.from(body.data.update, "base64")));
  return doc.getMap("slides").toJSON() as DeckJson;
}

/** Polls the server's deck until `check` finds what it waits for. */
async function eventually<T>(api: ApiClient, projectId: string, check: (deck: DeckJson) => T | undefined) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = check(await deckOf(api, projectId));
    if (found) return found;
    if (Date.now() > deadline) throw new Error("the deck never matched");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A point of the slide (slide pixels) on the page: the stage is scaled to fit. */
async function onPage(page: Page, x: number, y: number) {
  const box = (await page.locator(".slide-stage").boundingBox())!;
  const scale = box.width / 1000;
  return { x: box.x + x * scale, y: box.y + y * scale };
}

const imageOn = (deck: DeckJson) =>
  Object.values(deck)
    .flatMap((slide) => Object.values(slide.objects).map((object) => ({ slide, object })))
    .find(({ object }) => object.kind === "image");

describe("comments on slides", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it("a comment pinned to an image follows it to the other editor, and ?id= opens it", async () => {
    const ada = await signedIn(e2e, "slidecomments-ada", "Ada Lovelace");
    const grace = await signedIn(e2e, "slidecomments-grace", "Grace Hopper");
    const projectId = await newProject(ada.api, "Review deck", "illustration");
    await addMember(ada.api, projectId, grace.email, "edit");

    // Ada starts the deck, adds a second slide and an image on it.
    await ada.page.goto(`/project/${projectId}`);
    await ada.page.getByRole("button", { name: "Slide 1" }).waitFor();
    await ada.page.getByRole("button", { name: "Add slide" }).click();
    await ada.page.getByRole("button", { name: "Slide 2" }).waitFor();
    await ada.page.getByLabel("Image file").setInputFiles({
      name: "red.png",
      mimeType: "image/png",
      buffer: await sharp({ create: { width: 200, height: 140, channels: 3, background: "#e5383b" } })
        .png()
        .toBuffer(),
    });
    const { object: image } = await eventually(ada.api, projectId, imageOn);

    // Grace opens the deck (on its first slide); the empty panel says how to comment.
    await grace.page.goto(`/project/${projectId}`);
    await grace.page.getByText("No comments on this slide yet.", { exact: false }).waitFor();

    // Ada pins a comment to the image: Comment, then a click on it.
    await ada.page.getByRole("button", { name: "Comment", exact: true }).click();
    const onImage = await onPage(ada.page, image.x + image.width * 0.75, image.y + image.height * 0.75);
    await ada.page.mouse.click(onImage.x, onImage.y);
    await ada.page.getByText("Pinned to the selected object.").waitFor();
    await ada.page.getByLabel("Write a comment").fill("Make the red one bigger");
    await ada.page.getByRole("button", { name: "Comment", exact: true }).last().click();
    await ada.page.getByRole("heading", { name: "Comment 1" }).waitFor();
    await expect.poll(() => new URL(ada.page.url()).searchParams.get("id")).toBeTruthy();
    const commentId = new URL(ada.page.url()).searchParams.get("id")!;
    await shot(ada.page, "slide-comments-01-pinned");

    // Ada drags the image 200 px right and 150 px down (from a corner away from the pin).
    const from = await onPage(ada.page, image.x + 15, image.y + 15);
    const to = await onPage(ada.page, image.x + 215, image.y + 165);
    await ada.page.mouse.move(from.x, from.y);
    await ada.page.mouse.down();
    await ada.page.mouse.move(to.x, to.y, { steps: 12 });
    await ada.page.mouse.up();
    const moved = await eventually(ada.api, projectId, (deck) => {
      const now = imageOn(deck)?.object;
      return now && now.x !== image.x && now.y !== image.y ? now : undefined;
    });

    // Grace goes to slide 2: the pin is on the image where it now is — clicking there opens the thread.
    await grace.page.getByRole("button", { name: "Slide 2" }).click();
    await grace.page.getByRole("button", { name: /Ada Lovelace.*Make the red one bigger/ }).waitFor();
    await shot(grace.page, "slide-comments-02-list");
    const pin = await onPage(grace.page, moved.x + moved.width * 0.75, moved.y + moved.height * 0.75);
    await expect
      .poll(
        async () => {
          await grace.page.mouse.click(pin.x, pin.y);
          return grace.page.getByRole("heading", { name: "Comment 1" }).isVisible();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
    expect(new URL(grace.page.url()).searchParams.get("id")).toBe(commentId);
    await shot(grace.page, "slide-comments-03-followed");

    // Grace replies; Ada sees the reply live in her open thread.
    await grace.page.getByLabel("Reply", { exact: true }).fill("Done, have a look");
    await grace.page.getByRole("button", { name: "Reply", exact: true }).click();
    await ada.page.getByText("Done, have a look").waitFor();

    // ?id= on a fresh load opens the comment's slide (the second) and its thread.
    await grace.page.goto(`/project/${projectId}?id=${commentId}`);
    await grace.page.getByRole("heading", { name: "Comment 1" }).waitFor();
    await expect
      .poll(() => grace.page.getByRole("button", { name: "Slide 2" }).getAttribute("aria-current"))
      .toBe("true");
    await grace.page.getByText("Make the red one bigger").waitFor();
  }, 240_000);
});
