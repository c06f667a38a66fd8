/**
 * `/request-review` (SPEC §2 public views): a visitor, signed in or not, asks the owner of a project for
 * a review of a URL. The owner shares the page's link from the project's share dialog
 * (`/request-review?project={id}`); the request reaches only that owner — an in-app notification and a
 * mail — never an address the visitor typed.
 */
import { z } from "zod";

export const MAX_REVIEW_REQUEST_NAME = 100;
export const MAX_REVIEW_REQUEST_MESSAGE = 2000;

/** Per visitor (IP) and project per hour, and per project per day: a shared link cannot become a spam cannon. */
export const REVIEW_REQUESTS_PER_IP_PER_HOUR = 5;
export const REVIEW_REQUESTS_PER_PROJECT_PER_DAY = 50;

const projectId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "This review link is not valid. Ask for a new one.");

export const reviewRequestTargetQuerySchema = z.object({ project: projectId }).strict();

export const reviewRequestSchema = z
  .object({
    projectId,
    name: z
      .string()
      .trim()
      .min(1, "Write your name.")
      .max(MAX_REVIEW_REQUEST_NAME)
      .regex(/^[^\r\n]*$/, "Write your name on one line."),
    email: z.email("Write a valid e-mail address.").max(254),
    url: z
      .url({
        protocol: /^https?$/,
        message: "Write the address of the page to review, starting with https://.",
      })
      .max(2048),
    message: z.string().trim().max(MAX_REVIEW_REQUEST_MESSAGE).default(""),
  })
  .strict();
export type ReviewRequestInput = z.input<typeof reviewRequestSchema>;

/** GET /api/review-requests/target: who the request will reach, as the page names them. */
export const reviewRequestTargetSchema = z.strictObject({ ownerName: z.string() });
export type ReviewRequestTarget = z.infer<typeof reviewRequestTargetSchema>;

export const REVIEW_REQUEST_MESSAGES = {
  /** SPEC §8's confirmation of a sent request. */
  sent: "Your request has been sent. We'll get in touch soon.",
  invalidLink: "This review link is not valid. Ask for a new one.",
  noLink: "Open this page from the review link a project's owner shared with you.",
} as const;

/** The link an owner shares (from the share dialog) for people to ask them for a review. */
export function reviewRequestPath(projectId: string): string {
  return `/request-review?project=${encodeURIComponent(projectId)}`;
}
