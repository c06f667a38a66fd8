import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "./constants.ts";
import { limitsSchema } from "./limits.schemas.ts";
import { resolvedPlanSchema } from "./plans.ts";
import { storageUsageSchema } from "./storage.ts";

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
export const emailPreferencesSchema = z.strictObject(
  Object.fromEntries(EMAIL_PREFERENCE_KEYS.map((key) => [key, z.boolean()])) as Record<
    EmailPreferenceKey,
    z.ZodBoolean
  >,
);
export type EmailPreferences = z.infer<typeof emailPreferencesSchema>;

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

/** The minted hand-off: the other host's address that takes the code (the code in its query). */
export const handoffLinkSchema = z.strictObject({ url: z.string() });
export type HandoffLink = z.infer<typeof handoffLinkSchema>;

/** The hand-off link the other host opens: the one-time code and where to go on there. */
export const handoffQuerySchema = z
  .object({ code: z.string().min(1).max(200), next: z.string().max(2048).optional() })
  .strict();

export const unsubscribeQuerySchema = z.object({ token: z.string().min(1).max(1000) }).strict();

/** What an unsubscribe link says about itself before it is used. */
export const unsubscribeInfoSchema = z.strictObject({
  preference: z.enum(EMAIL_PREFERENCE_KEYS),
  label: z.string(),
  /** Still on: the link would turn it off. */
  isOn: z.boolean(),
});
export type UnsubscribeInfo = z.infer<typeof unsubscribeInfoSchema>;

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

export const userCountersSchema = z.strictObject({
  projectsCount: z.number().int(),
  projectPagesCount: z.number().int(),
  projectShareCount: z.number().int(),
  projectEditorsCount: z.number().int(),
  projectsEditors: z.number().int(),
});
export type UserCounters = z.infer<typeof userCountersSchema>;

/** The signed-in user as the API presents it (GET /api/me). */
export const userSchema = z.strictObject({
  uid: z.string(),
  displayName: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  pendingEmail: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  photoURL: z.string().nullable(),
  createdAt: z.iso.datetime(),
  signupSource: z.string().nullable(),
  onboarding: z.record(z.string(), z.literal(true)),
  emailPreferences: emailPreferencesSchema,
  notificationSound: z.boolean(),
  isDeleted: z.boolean(),
  isAnonymous: z.boolean(),
  privilege: z.string().nullable(),
  /** An operator of this instance (ADMIN_EMAILS) in their own browser session: the menus offer /admin. */
  isAdmin: z.literal(true).optional(),
  /** SPEC §3 partner-program plan (A–D), from the user's partner codes still standing. */
  partnerPlan: z.string().nullable(),
  limits: limitsSchema,
  counters: userCountersSchema,
  /** Bytes the files in the user's own projects hold, per product, and their plan's limit (-1 unlimited). */
  storage: z.strictObject({ web: storageUsageSchema, browse: storageUsageSchema }),
  connected: z.strictObject({ slack: z.boolean(), trello: z.boolean(), asana: z.boolean() }),
  /** What the user's plans allow, per product (computed by the server: resolvePlan). */
  plans: z.strictObject({ web: resolvedPlanSchema, browse: resolvedPlanSchema }),
  /** SPEC §4: a subscription has a payment that needs the user — the notice shows off /billing and /upgrade. */
  paymentIssue: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

/** POST /api/me/photo: where the stored photo is served (the profile names it with PATCH /api/me). */
export const profilePhotoSchema = z.strictObject({ photoURL: z.string() });

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
