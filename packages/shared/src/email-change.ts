/**
 * Change of e-mail address (SPEC §3 pendingEmail, §7 POST /email-change): Account Settings asks with the
 * new address and the current password; the link mailed to the new address confirms it.
 */
import { z } from "zod";

/** How long a confirmation link works. */
export const EMAIL_CHANGE_TTL_HOURS = 24;

export const emailChangeRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .max(254, "An e-mail address has at most 254 characters.")
    .pipe(z.email("Enter a valid e-mail address.")),
  /** The current password: the recent sign-in a change of address needs. */
  password: z.string().max(1024).optional(),
});
export type EmailChangeRequest = z.infer<typeof emailChangeRequestSchema>;

export const emailChangeConfirmSchema = z.object({ token: z.string().min(1).max(200) });

/** A change asked for, or its link sent again: the address waiting to be confirmed. */
export const emailChangePendingSchema = z.strictObject({ pendingEmail: z.string() });
export type EmailChangePending = z.infer<typeof emailChangePendingSchema>;

/** A change confirmed: the account's address now. */
export const emailChangedSchema = z.strictObject({ email: z.string() });
export type EmailChanged = z.infer<typeof emailChangedSchema>;

export const EMAIL_CHANGE_MESSAGES = {
  requested: "Check your new address: we sent it a link to confirm the change.",
  resent: "We sent the link again.",
  cancelled: "E-mail change cancelled.",
  inUse: "That e-mail address is already in use by another account.",
  sameAddress: "That is already your e-mail address.",
  wrongPassword: "The password is incorrect.",
  passwordRequired: "Enter your current password to change your e-mail address.",
  recentSignIn: "Sign in again to change your e-mail address.",
  nothingPending: "No change of e-mail address is waiting.",
  invalidLink: "This link is not valid, or it has already been used.",
  expiredLink: "This link has expired. Ask for a new one in Account Settings.",
} as const;
