import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "./constants.ts";
import type { Limits, Product } from "./limits.ts";
import type { ResolvedPlan } from "./plans.ts";
import type { StorageUsage } from "./storage.ts";

/** E-mail preference flags (SPEC §3), all default true. */
/** The longest display name (sign-up and profile). */
export const MAX_DISPLAY_NAME_LENGTH = 100;

export const EMAIL_PREFERENCE_KEYS = [
  "comments",
  "mentions",
  "commentResolve",
  "edits",
  "pagesApproved",
  "pagesUnapproved",
  "marketing",
  "blogUpdatesBugFixes",
] as const;
export type EmailPreferenceKey = (typeof EMAIL_PREFERENCE_KEYS)[number];
export type EmailPreferences = Record<EmailPreferenceKey, boolean>;

export const DEFAULT_EMAIL_PREFERENCES: EmailPreferences = Object.fromEntries(
  EMAIL_PREFERENCE_KEYS.map((key) => [key, true]),
) as EmailPreferences;

export const EMAIL_PREFERENCE_LABELS: Record<EmailPreferenceKey, string> = {
  comments: "New comments",
  mentions: "Mentions",
  commentResolve: "Resolved comments",
  edits: "Edit suggestions",
  pagesApproved: "Pages approved",
  pagesUnapproved: "Pages unapproved",
  marketing: "Offers and news",
  blogUpdatesBugFixes: "Blog updates and bug fixes",
};

/** GET/POST /api/mail/unsubscribe: the signed token a notification mail carries (RFC 8058 one-click). */
/** Asks for a one-time sign-in on another host of this instance (the bug-tracking host, a team's domain). */
export const handoffRequestSchema = z
  .object({ to: z.url().max(2048), next: z.string().max(2048).optional() })
  .strict();

/** The hand-off link the other host opens: the one-time code and where to go on there. */
export const handoffQuerySchema = z
  .object({ code: z.string().min(1).max(200), next: z.string().max(2048).optional() })
  .strict();

export const unsubscribeQuerySchema = z.object({ token: z.string().min(1).max(1000) }).strict();

/** What an unsubscribe link says about itself before it is used. */
export interface UnsubscribeInfo {
  preference: EmailPreferenceKey;
  label: string;
  /** Still on: the link would turn it off. */
  isOn: boolean;
}

export const UNSUBSCRIBE_MESSAGES = {
  done: (label: string) => `You will no longer get e-mails about ${label.toLowerCase()}.`,
  invalid: "This unsubscribe link is not valid.",
  expired: "This unsubscribe link has expired. Change your e-mail settings in your account instead.",
} as const;

export const ONBOARDING_FLAGS = [
  "introduceProductSplitting",
  "provideFeedbackWT",
  "provideFeedbackModal",
  // The first minutes (onboarding.ts): each screen once.
  "featureTour",
  "profileSetup",
  "demoModal",
] as const;

export interface UserCounters {
  projectsCount: number;
  projectPagesCount: number;
  projectShareCount: number;
  projectEditorsCount: number;
  projectsEditors: number;
}

/** The signed-in user as the API presents it (GET /api/me). */
export interface User {
  uid: string;
  displayName: string;
  email: string;
  emailVerified: boolean;
  pendingEmail: string | null;
  phoneNumber: string | null;
  photoURL: string | null;
  createdAt: string;
  signupSource: string | null;
  onboarding: Record<string, true>;
  emailPreferences: EmailPreferences;
  notificationSound: boolean;
  isDeleted: boolean;
  isAnonymous: boolean;
  privilege: string | null;
  /** An operator of this instance (ADMIN_EMAILS) in their own browser session: the menus offer /admin. */
  isAdmin?: boolean;
  /** SPEC §3 partner-program plan (A–D), from the user's partner codes still standing. */
  partnerPlan: string | null;
  limits: Limits;
  counters: UserCounters;
  /** Bytes the files in the user's own projects hold, per product, and their plan's limit (-1 unlimited). */
  storage: Record<Product, StorageUsage>;
  connected: { slack: boolean; trello: boolean; asana: boolean };
  /** What the user's plans allow, per product (computed by the server: resolvePlan). */
  plans: Record<Product, ResolvedPlan>;
  /** SPEC §4: a subscription has a payment that needs the user — the notice shows off /billing and /upgrade. */
  paymentIssue: boolean;
}

/** PATCH /api/me: only the provided fields change. */
export const profileUpdateSchema = z
  .object({
    displayName: z.string().trim().min(1).max(MAX_DISPLAY_NAME_LENGTH),
    photoURL: z.string().max(2048).nullable(),
    emailPreferences: z
      .object(
        Object.fromEntries(EMAIL_PREFERENCE_KEYS.map((key) => [key, z.boolean().optional()])) as Record<
          EmailPreferenceKey,
          z.ZodOptional<z.ZodBoolean>
        >,
      )
      .strict(),
    notificationSound: z.boolean(),
    onboarding: z.partialRecord(z.enum(ONBOARDING_FLAGS), z.literal(true)),
    signupSource: z.string().max(100),
  })
  .partial()
  .strict();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** POST /api/me/photo: a data URL of an image, uploaded before the profile update. */
export const photoUploadSchema = z.object({
  dataUrl: z.string().regex(/^data:image\/(png|jpeg|webp|gif);base64,/, "Expected an image data URL"),
});

export const newPasswordSchema = z.string().min(MIN_PASSWORD_LENGTH);

/** A new password must be at least 8 characters; otherwise nothing happens (SPEC §5). */
export function isValidNewPassword(password: string): boolean {
  return newPasswordSchema.safeParse(password).success;
}
