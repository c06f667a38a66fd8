/**
 * Feedback from the Help menu reaches FEEDBACK_EMAIL with its screenshots attached, and is kept with the
 * screenshots in the app's storage (which the file collector leaves alone); a screenshot that is not an
 * image, or too large, and a blank text are refused with a clear message, storing nothing.
 */
import { FEEDBACK_TEXTS, MAX_SUPPORT_MESSAGE, MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailboxMessages, supportMessages } from "../../db/schema/index.ts";
import { ApiClient } from "../../testing/http-client.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { defaultDriver, routeDrivers } from "../../testing/test-db.ts";
import { collectFiles } from "../files/collector.ts";
import { NOT_A_SCREENSHOT, type StoredScreenshot, screenshotFormat } from "./feedback.operations.ts";

const FEEDBACK = "feedback@redline.example";
const DOCS = "https://docs.redline.example/guide";
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;

describe("screenshotFormat", () => {
  it("reads the format from the magic bytes only", async () => {
    const image = sharp({ create: { width: 8, height: 8, channels: 3, background: "#e5383b" } });
    expect(screenshotFormat(await image.clone().png().toBuffer())).toBe("png");
    expect(screenshotFormat(await image.clone().jpeg().toBuffer())).toBe("jpeg");
    expect(screenshotFormat(await image.clone().webp().toBuffer())).toBe("webp");
    expect(screenshotFormat(await image.clone().gif().toBuffer())).toBe(null);
    expect(screenshotFormat(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBe(null);
  });
});

describe.each(routeDrivers())("feedback (%s)", (driver) => {
  let t: TestApp;
  let ada: Person;
  let png: Buffer;

  beforeAll(async () => {
    t = await startTestApp({
      driver,
      config: { supportEmail: "help@redline.example", feedbackEmail: FEEDBACK, docsUrl: DOCS },
    });
    ada = await signUpPerson(t, "ada", "Ada Lovelace");
    png = await sharp({ create: { width: 120, height: 80, channels: 4, background: "#e5383b" } })
      .png()
      .toBuffer();
  });
  afterAll(() => t.close());

  const rowsOf = (userId: string) =>
    t.ctx.database.db.select().from(supportMessages).where(eq(supportMessages.userId, userId));

  it("delivers the text with the screenshots attached to FEEDBACK_EMAIL, and keeps both", async () => {
    const jpeg = await sharp(png).jpeg().toBuffer();
    const sent = await ada.client.post("/api/support/feedback", {
      message: "  The pins overlap on small screens.\nSee the screenshots.  ",
      screenshots: [dataUrl("image/png", png), dataUrl("image/jpeg", jpeg)],
      page: "/projects",
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.message).toBe(FEEDBACK_TEXTS.thanks);

    const mail = await t.inbox!.waitFor((m) => m.to.includes(FEEDBACK));
    expect(mail.subject).toBe("[Redline] Feedback: The pins overlap on small screens.");
    expect(mail.text).toContain(`Ada Lovelace <${ada.address}>`);
    expect(mail.text).toContain("Page: /projects");
    expect(mail.text).toContain("See the screenshots.");
    expect(mail.text).toContain("Screenshots: 2 attached");
    // The HTML part (react-email, the one layout) says the same, escaped.
    expect(mail.html).toContain(`Feedback from Ada Lovelace &lt;${ada.address}&gt;`);
    expect(mail.html).toContain("Page: /projects");
    expect(mail.html).toContain("See the screenshots.");
    expect(mail.headers["reply-to"]).toContain(ada.address);
    expect(mail.attachments.map((file) => [file.filename, file.contentType])).toEqual([
      ["screenshot-1.png", "image/png"],
      ["screenshot-2.jpg", "image/jpeg"],
    ]);
    expect(mail.attachments[0]!.content.equals(png)).toBe(true);

    const [row] = await rowsOf(ada.uid);
    expect(row).toMatchObject({
      kind: "feedback",
      email: ada.address,
      message: "The pins overlap on small screens.\nSee the screenshots.",
    });
    const shots = row!.details.screenshots as StoredScreenshot[];
    expect(shots.map((shot) => [shot.contentType, shot.width, shot.height])).toEqual([
      ["image/png", 120, 80],
      ["image/jpeg", 120, 80],
    ]);
    const file = await t.ctx.storage.get(shots[0]!.key);
    expect(file?.size).toBe(png.length);
    file?.stream.destroy();

    // The collector sees the row's keys as references: nothing of the feedback goes, even with no grace.
    const { removed } = await collectFiles(t.ctx, 0);
    expect(removed.filter((key) => key.startsWith("feedback/"))).toEqual([]);
    expect(await t.ctx.storage.size(shots[1]!.key)).toBeGreaterThan(0);
  });

  it("tells the web app where Support docs are (DOCS_URL)", async () => {
    expect((await new ApiClient(t.url).get("/api/config")).body.docsUrl).toBe(DOCS);
  });

  it("takes a text without screenshots", async () => {
    const bob = await signUpPerson(t, "bob", "Bob");
    const sent = await bob.client.post("/api/support/feedback", { message: "Love it" });
    expect(sent.status).toBe(201);
    const mail = await t.inbox!.waitFor((m) => m.to.includes(FEEDBACK) && m.text.includes("Love it"));
    expect(mail.text).toContain("Screenshots: none");
    expect(mail.attachments).toEqual([]);
  });

  it("refuses a screenshot that is not an image or is over 5 MB, a blank text and a visitor, storing nothing", async () => {
    const svg = Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>");
    const notImage = await expectRefused(
      t,
      () =>
        ada.client.post("/api/support/feedback", {
          message: "Broken",
          screenshots: [dataUrl("image/png", png), dataUrl("image/png", svg)],
        }),
      400,
      "invalid-image",
    );
    expect(notImage.body.message).toBe(NOT_A_SCREENSHOT);
    // A truncated PNG: right magic bytes, not an image.
    await expectRefused(
      t,
      () =>
        ada.client.post("/api/support/feedback", {
          message: "Broken",
          screenshots: [dataUrl("image/png", png.subarray(0, 40))],
        }),
      400,
      "invalid-image",
    );
    const huge = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]);
    const tooLarge = await expectRefused(
      t,
      () =>
        ada.client.post("/api/support/feedback", {
          message: "Big",
          screenshots: [dataUrl("image/png", huge)],
        }),
      413,
      "max-file-size",
    );
    expect(tooLarge.body.message).toBe(MESSAGES.maxFileSize);
    await expectRefused(
      t,
      () =>
        ada.client.post("/api/support/feedback", {
          message: "x",
          screenshots: [dataUrl("image/svg+xml", svg)],
        }),
      400,
    );
    const blank = await expectRefused(
      t,
      () => ada.client.post("/api/support/feedback", { message: "  \n " }),
      400,
    );
    expect(blank.body.message).toBe("Write your feedback.");
    const tooLong = await expectRefused(
      t,
      () => ada.client.post("/api/support/feedback", { message: "x".repeat(MAX_SUPPORT_MESSAGE + 1) }),
      400,
      "validation",
    );
    expect(tooLong.body.message).toBe(
      `The message can be at most ${MAX_SUPPORT_MESSAGE.toLocaleString("en-US")} characters.`,
    );
    await expectRefused(
      t,
      () =>
        ada.client.post("/api/support/feedback", {
          message: "x",
          screenshots: Array(4).fill(dataUrl("image/png", png)),
        }),
      400,
    );
    await expectRefused(
      t,
      () => new ApiClient(t.url).post("/api/support/feedback", { message: "Hello" }),
      401,
    );
  });
});

describe("feedback without SMTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver: defaultDriver(), smtp: false, config: { feedbackEmail: FEEDBACK } });
  });
  afterAll(() => t.close());

  it("lands in the dev outbox, naming the attached screenshots", async () => {
    const client = new ApiClient(t.url);
    await client.post("/api/auth/sign-up/email", {
      email: "outbox-feedback@example.com",
      password: "correct horse battery",
      name: "Outbox",
    });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    const sent = await client.post("/api/support/feedback", {
      message: "Via the outbox",
      screenshots: [dataUrl("image/png", png)],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    await expect
      .poll(async () => {
        const rows = await t.ctx.database.db.select().from(mailboxMessages);
        return rows.find((row) => row.to === FEEDBACK)?.text ?? "";
      })
      .toContain("Attached: screenshot-1.png");
  });
});
