/**
 * Reaching the people who run this Redline installation (SPEC §2 Contact Us, §7 contact and
 * sendProRequest, §8 confirmations): what the forms send and what they say once sent.
 */
import { z } from "zod";

export const SUPPORT_MESSAGES = {
  contactSent: "Your message has been sent. We'll get in touch soon.",
  requestSent: "Your request has been sent. We'll get in touch soon.",
} as const;

export const MAX_SUPPORT_MESSAGE = 5000;

/** Contact Us: a subject and a message; who sends it is the signed-in user. */
export const contactSchema = z
  .object({
    subject: z.string().trim().min(1, "Write a subject.").max(200),
    message: z.string().trim().min(1, "Write a message.").max(MAX_SUPPORT_MESSAGE),
  })
  .strict();
export type ContactInput = z.infer<typeof contactSchema>;

/** A request for a plan with a relationship manager (SPEC §6: the Team plan), with the team's size. */
export const proRequestSchema = z
  .object({
    company: z.string().trim().min(1, "Name your company or team.").max(200),
    teamSize: z.number().int().min(1).max(100_000),
    message: z.string().trim().max(MAX_SUPPORT_MESSAGE).default(""),
  })
  .strict();
export type ProRequestInput = z.input<typeof proRequestSchema>;

export type SupportMessageKind = "contact" | "pro-request";
