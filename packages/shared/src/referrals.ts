/**
 * Refer & Earn (SPEC §2 profile menu; issue #34 item 4): a personal link; each friend who signs up through
 * it and proves their e-mail address earns the referrer a month of the Standard plan, up to a year.
 */
import { z } from "zod";

/** The cookie a referral link leaves in the friend's browser until they sign up. */
export const REFERRAL_COOKIE = "redline_ref";
/** A referral code: 8 unambiguous characters (no 0/O, 1/I/L), case-insensitive. */
export const referralCodeSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[23456789a-hjkmnp-z]{8}$/);
/** How long a followed link keeps counting (days). */
export const REFERRAL_COOKIE_DAYS = 30;
/** What one rewarded referral gives: the Standard plan (as a privilege, in every product) for 30 days more. */
export const REFERRAL_REWARD = { privilege: "standard", days: 30, maxRewards: 12 } as const;

/** GET /api/me/referral */
export const referralSchema = z.strictObject({
  /** The personal link to share. */
  link: z.string(),
  /** Friends who signed up through it. */
  signUps: z.number().int(),
  /** Of them, those whose sign-up earned a month (e-mail proved, within the cap). */
  rewarded: z.number().int(),
  maxRewards: z.number().int(),
  /** Until when the earned Standard months last, or null when none are running. */
  standardUntil: z.iso.datetime().nullable(),
});
export type Referral = z.infer<typeof referralSchema>;

export const REFERRAL_TEXTS = {
  title: "Refer & Earn",
  intro: `Share your link. For every friend who signs up and confirms their e-mail address, you get one month of the Standard plan free — up to ${REFERRAL_REWARD.maxRewards} months.`,
  copy: "Copy link",
  copied: "Link copied",
} as const;
