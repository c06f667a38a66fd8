/**
 * Reaching the people who run this Redline installation (SPEC §2 Contact Us and the feedback dialog, §7
 * contact, sendFeedback and sendProRequest, §8 confirmations, §9 the provide-feedback modal): what the
 * forms send, what they say, and when the app asks for feedback by itself.
 */
import { z } from "zod";
import { MAX_UPLOAD_BYTES } from "./constants.ts";
import { isWithinLength } from "./text-length.ts";

export const SUPPORT_MESSAGES = {
  contactSent: "Your message has been sent. We'll get in touch soon.",
  requestSent: "Your request has been sent. We'll get in touch soon.",
} as const;

export const MAX_SUPPORT_MESSAGE = 5000;
export const MAX_SUPPORT_SUBJECT = 200;
export const MAX_COMPANY_NAME = 200;

/** Contact Us: a subject and a message; who sends it is the signed-in user. */
export const contactSchema = z
  .object({
    subject: z.string().trim().min(1, "Write a subject.").max(MAX_SUPPORT_SUBJECT),
    message: z.string().trim().min(1, "Write a message.").max(MAX_SUPPORT_MESSAGE),
  })
  .strict();
export type ContactInput = z.infer<typeof contactSchema>;

/** A request for a plan with a relationship manager (SPEC §6: the Team plan), with the team's size. */
export const proRequestSchema = z
  .object({
    company: z.string().trim().min(1, "Name your company or team.").max(MAX_COMPANY_NAME),
    teamSize: z.number().int().min(1).max(100_000),
    message: z.string().trim().max(MAX_SUPPORT_MESSAGE).default(""),
  })
  .strict();
export type ProRequestInput = z.input<typeof proRequestSchema>;

export type SupportMessageKind = "contact" | "pro-request" | "feedback";

/** The feedback dialog's texts (SPEC §2), verbatim. */
export const FEEDBACK_TEXTS = {
  placeholder: "Write your feedback",
  dragHint: "Click & drag to take a screenshot",
  takeScreenshot: "Take a screenshot",
  takeAnother: "Take another screenshot",
  removeScreenshot: "Remove screenshot",
  submit: "Submit your feedback",
  sending: "Sending...",
  thanks: "Thanks for your feedback. We'll work on it.",
  sendAnother: "Send another feedback",
} as const;

/** SPEC §4: the feedback dialog is idle, sending, or sent. */
export type FeedbackState = "idle" | "sending" | "sent";

/** Screenshots one feedback may carry; each at most MAX_UPLOAD_BYTES ('Max file size is 5 MB.'). */
export const MAX_FEEDBACK_SCREENSHOTS = 3;
export const MAX_FEEDBACK_SCREENSHOT_BYTES = MAX_UPLOAD_BYTES;

/** A screenshot as the dialog sends it: a base64 data URL of a PNG, JPEG or WebP image. The server
 *  trusts the bytes, not the declared type: it checks the magic bytes and the size again. */
export const feedbackScreenshotSchema = z
  .string()
  .regex(/^data:image\/(png|jpeg|webp);base64,/, "A screenshot must be a PNG, JPEG or WebP image.");

/** SPEC §7 sendFeedback: the text (blank after trimming is refused, SPEC §5) and the screenshots. */
export const feedbackSchema = z
  .object({
    message: z.string().trim().min(1, "Write your feedback.").max(MAX_SUPPORT_MESSAGE),
    screenshots: z
      .array(feedbackScreenshotSchema)
      .max(MAX_FEEDBACK_SCREENSHOTS, `Attach at most ${MAX_FEEDBACK_SCREENSHOTS} screenshots.`)
      .default([]),
    /** The app route the feedback was written on, for context in the mail. */
    page: z.string().trim().max(500).optional(),
  })
  .strict();
export type FeedbackInput = z.input<typeof feedbackSchema>;

/** SPEC §5: submit is disabled while sending or when the text is blank after trimming. */
export function canSubmitFeedback(message: string, state: FeedbackState): boolean {
  return state !== "sending" && message.trim().length > 0 && isWithinLength(message, MAX_SUPPORT_MESSAGE);
}

/** SPEC §9: the provide-feedback modal is offered this long after the app loads. */
export const PROVIDE_FEEDBACK_DELAY_MS = 10_000;

/**
 * SPEC §9: offer the provide-feedback modal when the user owns 2 or more projects, has more than one
 * project (owned or shared), has earned `provideFeedbackWT` (set once they have added a page, see
 * docs/ARCHITECTURE.md) and has not already answered it (`provideFeedbackModal`).
 */
export function shouldOfferFeedbackModal(input: {
  ownedProjects: number;
  projects: number;
  onboarding: Partial<Record<string, true>>;
}): boolean {
  return (
    input.ownedProjects >= 2 &&
    input.projects > 1 &&
    input.onboarding.provideFeedbackWT === true &&
    input.onboarding.provideFeedbackModal !== true
  );
}

/**
 * When `provideFeedbackWT` is earned: Redline has no separate walkthrough, so the user has walked through
 * the product once they have a page in one of their own projects (added, captured or uploaded). The app
 * sets the flag the first time it sees that; only then can §9's modal come.
 */
export function earnsFeedbackWalkthrough(input: {
  projectPagesCount: number;
  onboarding: Partial<Record<string, true>>;
}): boolean {
  return input.projectPagesCount >= 1 && input.onboarding.provideFeedbackWT !== true;
}
