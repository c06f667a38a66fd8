/**
 * The signed-in person's writes to their own record (lib/operations.ts, ADR 0033): the profile's fields and
 * maps (merged in SQL, so two tabs toggling different flags never undo each other), the profile photo, and
 * one kind of notification mail turned off from an unsubscribe link (the link's signed claims are the caller).
 */
import {
  EMAIL_PREFERENCE_LABELS,
  MESSAGES,
  photoUploadSchema,
  profileUpdateSchema,
  UNSUBSCRIBE_MESSAGES,
  unsubscribeQuerySchema,
} from "@redline/shared";
import { eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { users } from "../../db/schema/index.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { toJpeg } from "../../lib/images.ts";
import { readUnsubscribeToken } from "../../lib/mail/unsubscribe-token.ts";
import { operation } from "../../lib/operations.ts";
import type { Actor } from "../auth/session.ts";
import { countersFor } from "./counters.ts";
import { presentUser } from "./users.presenter.ts";

export const updateProfile = operation(
  "users.update",
  profileUpdateSchema,
  async (ctx, actor: Actor, input) => {
    const { db } = ctx.database;
    const [updated] = await db
      .update(users)
      .set({
        ...(input.displayName !== undefined && { displayName: input.displayName }),
        ...(input.photoURL !== undefined && { photoURL: input.photoURL }),
        ...(input.notificationSound !== undefined && { notificationSound: input.notificationSound }),
        ...(input.signupSource !== undefined && { signupSource: input.signupSource }),
        ...(input.emailPreferences && {
          emailPreferences: sql`${users.emailPreferences} || ${JSON.stringify(input.emailPreferences)}::jsonb`,
        }),
        ...(input.onboarding && {
          onboarding: sql`${users.onboarding} || ${JSON.stringify(input.onboarding)}::jsonb`,
        }),
        updatedAt: new Date(),
      })
      .where(eq(users.id, actor.user.id))
      .returning();
    return {
      data: presentUser(updated!, ctx.config.plansEnabled, await countersFor(db, updated!)),
      message: MESSAGES.profileUpdated,
    };
  },
);

/** Stores the photo (re-encoded, content-addressed); the profile names it with `updateProfile`. */
export const uploadProfilePhoto = operation(
  "users.photo",
  photoUploadSchema,
  async (ctx, actor: Actor, { dataUrl }) => {
    const { jpeg, hash } = await toJpeg(
      Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64"),
      "avatar",
    );
    const key = `avatars/${actor.user.id}/${hash}.jpg`;
    await ctx.storage.put(key, jpeg);
    return { data: { photoURL: `/files/${key}` } };
  },
);

/** The person and preference an unsubscribe link names; 400 for a forged or expired link. */
export async function unsubscribeClaims(ctx: AppContext, token: string) {
  const read = readUnsubscribeToken(ctx.config.authSecret, token);
  if (!read.ok)
    throw read.reason === "expired"
      ? new BadRequestError(UNSUBSCRIBE_MESSAGES.expired, "unsubscribe-expired")
      : new BadRequestError(UNSUBSCRIBE_MESSAGES.invalid, "unsubscribe-invalid");
  const [user] = await ctx.database.db
    .select({ id: users.id, isDeleted: users.isDeleted, emailPreferences: users.emailPreferences })
    .from(users)
    .where(eq(users.id, read.userId));
  if (!user || user.isDeleted) throw new BadRequestError(UNSUBSCRIBE_MESSAGES.invalid, "unsubscribe-invalid");
  return { user, preference: read.preference };
}

/**
 * One kind of notification mail turned off from its link, without a sign-in (the signed token is the
 * authority). One key set in SQL: a settings change made meanwhile keeps its other keys.
 */
export const unsubscribe = operation(
  "users.unsubscribe",
  unsubscribeQuerySchema,
  async (ctx, _caller: null, { token }) => {
    const { user, preference } = await unsubscribeClaims(ctx, token);
    await ctx.database.db
      .update(users)
      .set({
        emailPreferences: sql`${users.emailPreferences} || ${JSON.stringify({ [preference]: false })}::jsonb`,
      })
      .where(eq(users.id, user.id));
    return { message: UNSUBSCRIBE_MESSAGES.done(EMAIL_PREFERENCE_LABELS[preference]) };
  },
);
