/**
 * An illustration project through its public link in a real browser (issue #32): the owner turns the
 * deck's link on with comments allowed; a visitor without an account opens it, sees slide 1 read only
 * and pins a comment on it under their name; the owner sees it arrive, opens it from its pin with the
 * keyboard and answers, and the visitor sees the answer — and her edits of the deck — without a reload. Deleting the slide (confirmed,
 * as it has a comment) deletes its comment everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { type E2E, startE2E } from "./harness.ts";
import { newProject, shot, signedIn } from "./helpers.ts";

describe("a deck's public link", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it("lets a guest see the deck read only and comment on a slide; the owner sees it and answers", async () => {
    const ada = await signedIn(e2e, "deckguest-ada", "Ada Lovelace");
    const projectId = await newProject(ada.api, "Pitch deck", "illustration");
    await ada.page.setViewportSize({ width: 1600, height: 1000 });

    // Ada opens the deck (it starts with a blank slide) and puts a text on it.
    await ada.page.goto(`/project/${projectId}`);
    await ada.page.getByRole("button", { name: "Slide 1" }).waitFor();
    await ada.page.getByRole("button", { name: "Add text" }).click();
    await expect
      .poll(
        async () => {
          const { body } = await ada.api.get(`/api/projects/${projectId}/deck`);
          const doc = new Y.Doc();
          Y.applyUpdate(doc, new Uint8Array(Buffer.from(body.data.update, "base64")));
          const slides = Object.values(doc.getMap("slides").toJSON()) as { objects: object }[];
          return slides.map((slide) => Object.keys(slide.objects).length);
        },
        { timeout: 30_000 },
      )
      .toEqual([1]);

    // She turns the link on, comments allowed: a deck's link has no page settings.
    await ada.page.getByRole("button", { name: "Share", exact: true }).click();
    const dialog = ada.page.getByRole("dialog");
    for (const label of ["Anyone with the link can view", "Allow comments"]) {
      const control = dialog.getByRole("switch", { name: label, exact: true });
      if ((await control.getAttribute("aria-checked")) !== "true") await control.click();
      await expect.poll(() => control.getAttribute("aria-checked")).toBe("true");
    }
    expect(await dialog.getByRole("switch", { name: "Show all pages" }).count()).toBe(0);
    await expect
      .poll(async () => (await ada.api.get(`/api/projects/${projectId}`)).body.data.sharing)
      .toMatchObject({ public: true, canComment: true });
    const link = await dialog.getByLabel("Share link", { exact: true }).inputValue();
    expect(link).toBe(`${e2e.baseUrl}/share/${projectId}`);
    await shot(ada.page, "slide-guests-01-share");
    await ada.page.keyboard.press("Escape");

    // A visitor without an account opens the link, names themselves and sees slide 1, read only.
    const visitor = await e2e.newPage();
    await visitor.setViewportSize({ width: 1600, height: 1000 });
    await visitor.goto(link);
    await visitor.getByLabel("Your name").fill("Margaret");
    await visitor.getByRole("button", { name: "Continue", exact: true }).click();
    await visitor.getByRole("heading", { name: "Pitch deck", level: 1 }).waitFor();
    await expect
      .poll(() => visitor.getByRole("button", { name: "Slide 1" }).getAttribute("aria-current"))
      .toBe("true");
    await visitor.getByText("View only", { exact: true }).waitFor();
    // Nothing of theirs is ever saved, so nothing says it is.
    expect(await visitor.getByText("All changes saved").count()).toBe(0);
    expect(await visitor.getByRole("button", { name: "Add text" }).count()).toBe(0);
    expect(await visitor.getByRole("button", { name: "Add slide" }).count()).toBe(0);
    expect(await visitor.getByRole("textbox", { name: "Notes" }).getAttribute("readonly")).not.toBeNull();
    await visitor.getByText("Margaret", { exact: true }).waitFor();
    // Each is in the other's presence: Ada sees the guest on slide 1, the guest sees Ada.
    await ada.page
      .getByRole("listitem", { name: "Margaret (guest) on slide 1" })
      .waitFor({ timeout: 15_000 });
    await visitor.getByRole("listitem", { name: "Ada Lovelace on slide 1" }).waitFor({ timeout: 15_000 });

    // The visitor pins a comment on slide 1.
    await visitor.getByRole("button", { name: "Comment", exact: true }).click();
    const stage = (await visitor.locator(".slide-stage").boundingBox())!;
    await visitor.mouse.click(stage.x + stage.width * 0.6, stage.y + stage.height * 0.7);
    await visitor.getByText("Pinned to a point of the slide.").waitFor();
    await visitor.getByLabel("Write a comment").fill("Love the title, make it bigger");
    await visitor.getByRole("button", { name: "Comment", exact: true }).last().click();
    await visitor.getByRole("heading", { name: "Comment 1" }).waitFor();
    await shot(visitor, "slide-guests-02-guest-commented");

    // Ada sees it arrive on her open deck, by the guest's name.
    const [made] = (await ada.api.get(`/api/projects/${projectId}/slide-comments`)).body.data.comments;
    expect(made.thread[0].author).toMatchObject({ displayName: "Margaret", isGuest: true });
    await ada.page.getByRole("button", { name: /Margaret.*Love the title/ }).waitFor();

    // She opens it from its pin with the keyboard, and answers.
    const pin = ada.page.getByRole("button", { name: "Comment 1 by Margaret" });
    await pin.focus();
    await shot(ada.page, "slide-guests-03-pin-focused");
    await ada.page.keyboard.press("Enter");
    await ada.page.getByRole("heading", { name: "Comment 1" }).waitFor();
    expect(new URL(ada.page.url()).searchParams.get("id")).toBe(made.id);
    await ada.page.getByLabel("Reply", { exact: true }).fill("Thanks, done");
    await ada.page.getByRole("button", { name: "Reply", exact: true }).click();
    await shot(ada.page, "slide-guests-04-owner-answers");

    // The visitor's open thread shows the answer without a reload.
    await visitor.getByText("Thanks, done", { exact: true }).waitFor({ timeout: 15_000 });

    // Ada deletes the commented slide (after adding another): asked first, its comments go with it —
    // from her panel, the server and the visitor's open view alike.
    await ada.page.getByRole("button", { name: "Add slide" }).click();
    await ada.page.getByRole("button", { name: "Slide 2" }).waitFor();
    // The visitor's read-only deck follows her edits live.
    await visitor.getByRole("button", { name: "Slide 2" }).waitFor({ timeout: 15_000 });
    await ada.page.getByRole("button", { name: "Slide 1" }).click();
    await ada.page.getByRole("button", { name: "Delete slide" }).click();
    const confirm = ada.page.getByRole("dialog", { name: "Delete this slide?" });
    await confirm.getByText("Slide 1 and its comment are deleted. Undo brings them back.").waitFor();
    await shot(ada.page, "slide-guests-05-delete-commented-slide");
    await confirm.getByRole("button", { name: "Delete slide" }).click();
    await expect
      .poll(async () => (await ada.api.get(`/api/projects/${projectId}/slide-comments`)).body.data.comments, {
        timeout: 15_000,
      })
      .toEqual([]);
    await expect.poll(() => ada.page.getByRole("button", { name: /^Comment 1 by/ }).count()).toBe(0);
    await expect
      .poll(() => visitor.getByText("Love the title, make it bigger").count(), { timeout: 15_000 })
      .toBe(0);
    await expect.poll(() => visitor.getByRole("button", { name: "Slide 2" }).count()).toBe(0);

    // Ctrl/Cmd+Z brings the slide back and its comment with it (ADR 0044), for Ada and the visitor alike.
    await ada.page.keyboard.press("Control+z");
    await expect
      .poll(
        async () =>
          (await ada.api.get(`/api/projects/${projectId}/slide-comments`)).body.data.comments.map(
            (c: { id: string }) => c.id,
          ),
        { timeout: 15_000 },
      )
      .toEqual([made.id]);
    await ada.page.getByRole("button", { name: "Slide 1" }).click();
    await ada.page.getByRole("button", { name: /^Comment 1 by Margaret/ }).waitFor();
    await visitor.getByRole("button", { name: "Slide 2" }).waitFor({ timeout: 15_000 });
    await shot(ada.page, "slide-guests-06-undo-brings-comments-back");

    // The deck's embed link shows the same deck, read only, with a way into Redline.
    await visitor.goto(`/embed/${projectId}`);
    await visitor.getByRole("button", { name: "Slide 1" }).waitFor();
    await visitor.getByRole("link", { name: /Open in Redline/ }).waitFor();
    expect(await visitor.getByRole("button", { name: "Add text" }).count()).toBe(0);
    await shot(visitor, "slide-guests-07-embed");
  }, 240_000);
});
