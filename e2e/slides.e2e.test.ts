/**
 * The slide editor in a real browser (issue #32): two editors on one illustration project add slides,
 * texts and images (one uploaded, one pasted from the clipboard), move and style one text at the same
 * time, and end with the same deck after a reload — one of them offline for a while; thumbnails show the
 * slides and the PDF export holds a page per slide. A viewer sees the deck read only.
 */
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import type { ApiClient } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E } from "./harness.ts";
import { addMember, newProject, shot, signedIn } from "./helpers.ts";

interface DeckJson {
  [slideId: string]: {
    id: string;
    position: number;
    objects: Record<string, { kind: string; x: number; y: number; fontWeight?: number; text?: string }>;
  };
}

/** The deck as the server holds it, read by `api`'s user. */
async function deckOf(api: ApiClient, projectId: string): Promise<DeckJson> {
  const { body } = await api.get(`/api/projects/${projectId}/deck`);
  const doc = new Y.Doc();
  Y.applyUpdate(doc, new Uint8Array(Buffer.from(body.data.update, "base64")));
  return doc.getMap("slides").toJSON() as DeckJson;
}

/** Polls the server's deck until `check` holds (background sends on a loaded machine take a while). */
async function eventually(api: ApiClient, projectId: string, check: (deck: DeckJson) => boolean) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const deck = await deckOf(api, projectId);
    if (check(deck)) return deck;
    if (Date.now() > deadline) throw new Error(`the deck never matched: ${JSON.stringify(deck)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const slidesIn = (deck: DeckJson) => Object.values(deck).sort((a, b) => a.position - b.position);
const objectsOf = (deck: DeckJson) => slidesIn(deck).flatMap((slide) => Object.values(slide.objects));

/** Clicks a point of the slide given in slide pixels (the stage is scaled to fit). */
async function clickSlide(page: Page, x: number, y: number) {
  const box = (await page.locator(".slide-stage").boundingBox())!;
  const scale = box.width / 1000;
  await page.mouse.click(box.x + x * scale, box.y + y * scale);
}

async function png(color: string) {
  return sharp({ create: { width: 200, height: 140, channels: 3, background: color } })
    .png()
    .toBuffer();
}

describe("the slide editor", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it("two editors build one deck at the same time and end with the same slides after a reload", async () => {
    const ada = await signedIn(e2e, "slides-ada", "Ada Lovelace");
    const grace = await signedIn(e2e, "slides-grace", "Grace Hopper");
    const vic = await signedIn(e2e, "slides-vic", "Vic Viewer");
    const projectId = await newProject(ada.api, "Pitch deck", "illustration");
    await addMember(ada.api, projectId, grace.email, "edit");
    await addMember(ada.api, projectId, vic.email, "view");

    // Ada opens the empty deck: it starts with a blank slide. Grace opens it next.
    await ada.page.goto(`/project/${projectId}`);
    await ada.page.getByRole("button", { name: "Slide 1" }).waitFor();
    await eventually(ada.api, projectId, (deck) => slidesIn(deck).length === 1);
    await grace.page.goto(`/project/${projectId}`);
    await grace.page.getByRole("button", { name: "Slide 1" }).waitFor();
    // Each sees the other on the deck.
    await ada.page.getByRole("listitem", { name: "Grace Hopper on slide 1" }).waitFor();
    await grace.page.getByRole("listitem", { name: "Ada Lovelace on slide 1" }).waitFor();

    // Both add at once: Ada a text and an uploaded image, Grace a pasted image.
    await ada.page.getByRole("button", { name: "Add text" }).click();
    await ada.page.getByLabel("Image file").setInputFiles({
      name: "red.png",
      mimeType: "image/png",
      buffer: await png("#e5383b"),
    });
    const pasted = (await png("#2f5fb3")).toString("base64");
    await grace.page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "blue.png", { type: "image/png" }));
      document.body.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true }));
    }, pasted);
    let deck = await eventually(ada.api, projectId, (d) => objectsOf(d).length === 3);
    // The pasted image sits at SPEC §9's offset: +50 px left, +20 px top.
    expect(objectsOf(deck).filter((o) => o.kind === "image" && o.x === 50 && o.y === 20)).toHaveLength(1);
    await shot(ada.page, "slides-01-two-editors");

    // The same text, at the same time: Ada moves it by Shift+arrows (10 px each), Grace makes it bold.
    const text = objectsOf(deck).find((o) => o.kind === "text")!;
    await clickSlide(ada.page, text.x + 250, text.y + 15);
    await clickSlide(grace.page, text.x + 250, text.y + 15);
    await grace.page.getByRole("heading", { name: "Text" }).waitFor();
    await ada.page.getByRole("heading", { name: "Text" }).waitFor();
    await Promise.all([
      (async () => {
        for (let i = 0; i < 3; i++) await ada.page.keyboard.press("Shift+ArrowRight");
      })(),
      grace.page.keyboard.press("Control+b"),
    ]);
    deck = await eventually(ada.api, projectId, (d) => {
      const now = objectsOf(d).find((o) => o.kind === "text");
      return now?.x === text.x + 30 && now.fontWeight === 700;
    });

    // Grace adds a slide; Ada's strip shows it live. Ada undoes nothing of Grace's with Ctrl+Z: her own
    // last move only.
    await grace.page.getByRole("button", { name: "Add slide" }).click();
    await ada.page.getByRole("button", { name: "Slide 2" }).waitFor();
    await ada.page.getByRole("button", { name: "Slide 1" }).click();
    await ada.page.keyboard.press("Escape");
    await ada.page.keyboard.press("Control+z");
    deck = await eventually(ada.api, projectId, (d) => {
      const now = objectsOf(d).find((o) => o.kind === "text");
      return slidesIn(d).length === 2 && now?.x === text.x + 20 && now.fontWeight === 700;
    });

    // Thumbnails of both slides, drawn from the deck.
    await expect
      .poll(() =>
        ada.page
          .locator(".slide-strip img")
          .evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src.slice(0, 15))),
      )
      .toEqual(["data:image/jpeg", "data:image/jpeg"]);

    // Grace goes offline and keeps editing: her new slide waits, and arrives when she is back.
    await grace.page.context().setOffline(true);
    await grace.page.getByRole("button", { name: "Add slide" }).click();
    await grace.page.getByRole("button", { name: "Slide 3" }).waitFor();
    await grace.page.getByRole("status").filter({ hasText: "Offline" }).waitFor();
    expect(slidesIn(await deckOf(ada.api, projectId))).toHaveLength(2);
    await grace.page.context().setOffline(false);
    await ada.page.getByRole("button", { name: "Slide 3" }).waitFor({ timeout: 30_000 });

    // After a reload both show the same deck, the server's.
    await Promise.all([ada.page.reload(), grace.page.reload()]);
    for (const page of [ada.page, grace.page]) {
      await page.getByRole("button", { name: "Slide 2" }).waitFor();
      await page.getByRole("status").filter({ hasText: "All changes saved" }).waitFor();
    }
    expect(await deckOf(grace.api, projectId)).toEqual(await deckOf(ada.api, projectId));
    // The project card shows the first slide (saved 3000 ms after an editor changed it, SPEC §9).
    await expect
      .poll(async () => (await ada.api.get(`/api/projects/${projectId}`)).body.data.thumbnail, {
        timeout: 20_000,
      })
      .toMatch(/^\/files\/thumbnails\//);
    await shot(ada.page, "slides-02-after-reload");

    // The PDF export holds a page per slide.
    const download = ada.page.waitForEvent("download");
    await ada.page.getByRole("button", { name: "PDF" }).click();
    const pdf = await (await download).createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of pdf) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks).toString("latin1");
    expect(bytes.startsWith("%PDF-")).toBe(true);
    expect(bytes).toContain("/Count 3");

    // A viewer sees the slides and no control to change them; the server refuses a change anyway.
    await vic.page.goto(`/project/${projectId}`);
    await vic.page.getByRole("button", { name: "Slide 2" }).waitFor();
    await vic.page.getByText("View only").waitFor();
    expect(await vic.page.getByRole("button", { name: "Add text" }).count()).toBe(0);
    expect(await vic.page.getByRole("button", { name: "Add slide" }).count()).toBe(0);
    await shot(vic.page, "slides-03-viewer");
  }, 180_000);

  it("edits a text in place, drags it with the mouse, and shows distances while Ctrl is held", async () => {
    const ada = await signedIn(e2e, "slides-solo", "Ada Lovelace");
    const projectId = await newProject(ada.api, "Solo deck", "illustration");
    const { page } = ada;
    await page.goto(`/project/${projectId}`);
    await page.getByRole("button", { name: "Slide 1" }).waitFor();
    await page.getByRole("button", { name: "Add text" }).click();
    let deck = await eventually(ada.api, projectId, (d) => objectsOf(d).length === 1);
    const text = objectsOf(deck)[0]!;

    // Settled: saved, and the strip's thumbnail drawn.
    await page.getByRole("status").filter({ hasText: "All changes saved" }).waitFor();
    await page.locator(".slide-strip img").first().waitFor();
    const box = (await page.locator(".slide-stage").boundingBox())!;
    const scale = box.width / 1000;
    const at = (x: number, y: number) => ({ x: box.x + x * scale, y: box.y + y * scale });

    // Double-click: typed in place, saved on leaving the field.
    const inside = at(text.x + 40, text.y + 12);
    await page.mouse.dblclick(inside.x, inside.y);
    const field = page.getByRole("textbox", { name: "Text" });
    await field.fill("Quarterly results");
    await field.press("Escape");
    await field.waitFor({ state: "detached" });
    await eventually(ada.api, projectId, (d) => objectsOf(d)[0]?.text === "Quarterly results");

    // A mouse drag moves it: one change at the end of the drag, saved, and where it was dropped after a
    // reload (clicking there selects it; where it was, nothing).
    await page.mouse.move(inside.x, inside.y);
    await page.mouse.down();
    const to = at(text.x + 140, text.y + 162);
    await page.mouse.move(to.x, to.y, { steps: 12 });
    await page.mouse.up();
    deck = await eventually(ada.api, projectId, (d) => (objectsOf(d)[0]?.y ?? 0) > text.y + 100);
    const moved = objectsOf(deck)[0]!;
    expect(moved.x).toBeGreaterThan(text.x + 50);
    await page.reload();
    await page.getByRole("status").filter({ hasText: "All changes saved" }).waitFor();
    await clickSlide(page, text.x + 40, text.y + 12);
    await page.getByText("Select an object to style it.", { exact: false }).waitFor();
    await clickSlide(page, moved.x + 40, moved.y + 12);
    await page.getByRole("heading", { name: "Text" }).waitFor();

    // Ctrl held: the distances to the slide's edges are drawn beside the selection.
    await page.keyboard.down("Control");
    await shot(page, "slides-04-distances");
    await page.keyboard.up("Control");
  }, 120_000);
});
