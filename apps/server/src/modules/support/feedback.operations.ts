/**
 * Feedback from the Help menu (SPEC §2 feedback dialog, §7 sendFeedback, issue #16): a text and up to
 * three screenshots of the app. Each screenshot is recognised by its bytes (PNG, JPEG or WebP, at most
 * 5 MB) before anything is stored; then the files go to the app's storage (their keys in the row's
 * `details.screenshots`, which the file collector counts as references), the message to
 * `support_messages` (kind 'feedback'), and a mail with the screenshots attached to FEEDBACK_EMAIL through
 * the durable outbox, with the sender as Reply-To.
 */
import { createHash } from "node:crypto";
import { FEEDBACK_TEXTS, feedbackSchema, MAX_FEEDBACK_SCREENSHOT_BYTES, MESSAGES } from "@redline/shared";
import { supportMessages } from "../../db/schema/index.ts";
import { BadRequestError, PayloadTooLargeError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { detectImage } from "../../lib/images.ts";
import { feedbackMail } from "../../lib/mail/support-templates.ts";
import { operation } from "../../lib/operations.ts";
import type { Actor } from "../auth/session.ts";

export const NOT_A_SCREENSHOT = "A screenshot must be a PNG, JPEG or WebP image.";

const FORMATS = {
  png: { contentType: "image/png", ext: "png" },
  jpeg: { contentType: "image/jpeg", ext: "jpg" },
  webp: { contentType: "image/webp", ext: "webp" },
} as const;

/** The format the bytes say they are, by their magic numbers; never the declared type. */
export function screenshotFormat(bytes: Buffer): keyof typeof FORMATS | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (
    bytes.subarray(0, 4).toString("latin1") === "RIFF" &&
    bytes.subarray(8, 12).toString("latin1") === "WEBP"
  )
    return "webp";
  return null;
}

export interface StoredScreenshot {
  key: string;
  contentType: string;
  bytes: number;
  width: number;
  height: number;
}

/** Decodes and checks every screenshot before any is stored: one bad file refuses the whole feedback. */
async function readScreenshots(dataUrls: string[]) {
  const read = [];
  for (const dataUrl of dataUrls) {
    const base64 = dataUrl.slice(dataUrl.indexOf(",") + 1);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw new BadRequestError(NOT_A_SCREENSHOT, "invalid-image");
    const bytes = Buffer.from(base64, "base64");
    if (bytes.length > MAX_FEEDBACK_SCREENSHOT_BYTES)
      throw new PayloadTooLargeError(MESSAGES.maxFileSize, "max-file-size");
    const format = screenshotFormat(bytes);
    // The magic bytes say which format; sharp reading the whole header says it is really one.
    const image = format ? await detectImage(bytes) : null;
    if (!format || image?.format !== format) throw new BadRequestError(NOT_A_SCREENSHOT, "invalid-image");
    read.push({ bytes, format, width: image.width, height: image.height });
  }
  return read;
}

export const sendFeedback = operation(
  "support.feedback",
  feedbackSchema,
  async (ctx, actor: Actor, input) => {
    const { storage, mailer } = ctx;
    const { db } = ctx.database;
    const screenshots = await readScreenshots(input.screenshots);
    const id = newId();
    const stored: StoredScreenshot[] = [];
    for (const [index, shot] of screenshots.entries()) {
      const { contentType, ext } = FORMATS[shot.format];
      const hash = createHash("sha256").update(shot.bytes).digest("hex").slice(0, 16);
      const key = `feedback/${id}/${index + 1}-${hash}.${ext}`;
      await storage.put(key, shot.bytes);
      stored.push({ key, contentType, bytes: shot.bytes.length, width: shot.width, height: shot.height });
    }
    const sender = { name: actor.user.displayName || actor.user.email, email: actor.user.email };
    const subject = input.message.split(/\r?\n/)[0]!.slice(0, 80);
    await db.insert(supportMessages).values({
      id,
      kind: "feedback",
      userId: actor.user.id,
      ...sender,
      subject,
      message: input.message,
      details: { screenshots: stored, ...(input.page && { page: input.page }) },
    });
    await mailer.send(
      feedbackMail({
        to: ctx.config.feedbackEmail,
        sender,
        subject,
        message: input.message,
        page: input.page ?? null,
        screenshots: stored.map((shot, index) => ({
          filename: `screenshot-${index + 1}.${shot.key.slice(shot.key.lastIndexOf(".") + 1)}`,
          contentType: shot.contentType,
          content: screenshots[index]!.bytes.toString("base64"),
        })),
      }),
    );
    return { message: FEEDBACK_TEXTS.thanks };
  },
);
