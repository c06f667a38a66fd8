/**
 * Change of a user's e-mail address (SPEC §3 pendingEmail, §7 POST /email-change). Asked for with the
 * current password (the recent sign-in it needs; a person without a password — signed up with Google —
 * needs a sign-in within AUTH_FRESH_AGE_SECONDS); the new address gets a link, the old one a notice. The
 * link's secret is kept as its SHA-256 hash, works for 24 hours and once. Following it makes the new
 * address the account's (verified, since the link proved it); sessions stay signed in (ADR 0032).
 */
import { createHash, randomBytes } from "node:crypto";
import {
  EMAIL_CHANGE_TTL_HOURS,
  type EmailChanged,
  type EmailChangePending,
  type EmailChangeRequest,
  REQUIRES_RECENT_LOGIN,
  EMAIL_CHANGE_MESSAGES as TEXT,
} from "@redline/shared";
import { and, eq, ne } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { accounts, emailChanges, type UserRow, users } from "../../db/schema/index.ts";
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  isUniqueViolation,
  UnauthorizedError,
} from "../../lib/errors.ts";
import { emailChangeMail, emailChangeNoticeMail } from "../../lib/mail/templates.ts";
import { userActionUrl } from "./auth.ts";
import type { Actor } from "./session.ts";

type Ctx = Pick<AppContext, "auth" | "config" | "database" | "mailer">;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

async function assertFree(ctx: Ctx, email: string, userId: string) {
  const [taken] = await ctx.database.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), ne(users.id, userId)));
  if (taken) throw new ConflictError(TEXT.inUse, "auth/email-already-in-use");
}

/** The password proves a recent sign-in; without one, the session must be recent. */
async function assertRecentSignIn(ctx: Ctx, actor: Actor, password: string | undefined) {
  const [credential] = await ctx.database.db
    .select({ hash: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, actor.user.id), eq(accounts.providerId, "credential")));
  if (credential?.hash) {
    if (!password) throw new BadRequestError(TEXT.passwordRequired, "auth/missing-password");
    const auth = await ctx.auth.$context;
    if (!(await auth.password.verify({ hash: credential.hash, password })))
      throw new ForbiddenError(TEXT.wrongPassword, "auth/wrong-password");
    return;
  }
  const age = Date.now() - actor.sessionCreatedAt.getTime();
  if (age > ctx.config.authFreshAgeSeconds * 1000)
    throw new UnauthorizedError(TEXT.recentSignIn, REQUIRES_RECENT_LOGIN);
}

/** A new secret for the user's pending change, stored as its hash; answers the link to mail. */
async function issueLink(ctx: Ctx, userId: string, newEmail: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const row = {
    userId,
    newEmail,
    tokenHash: hashOf(token),
    expiresAt: new Date(Date.now() + EMAIL_CHANGE_TTL_HOURS * 3600_000),
    createdAt: new Date(),
  };
  await ctx.database.db.transaction(async (tx) => {
    await tx.insert(emailChanges).values(row).onConflictDoUpdate({ target: emailChanges.userId, set: row });
    await tx.update(users).set({ pendingEmail: newEmail, updatedAt: new Date() }).where(eq(users.id, userId));
  });
  return userActionUrl(ctx.config.appUrl, "verifyAndChangeEmail", token);
}

export async function requestEmailChange(
  ctx: Ctx,
  actor: Actor,
  input: EmailChangeRequest,
): Promise<EmailChangePending> {
  const email = input.email.toLowerCase();
  if (email === actor.user.email) throw new BadRequestError(TEXT.sameAddress, "auth/same-email");
  await assertRecentSignIn(ctx, actor, input.password);
  await assertFree(ctx, email, actor.user.id);
  const link = await issueLink(ctx, actor.user.id, email);
  await ctx.mailer.send(emailChangeMail(email, link));
  await ctx.mailer.send(
    emailChangeNoticeMail(actor.user.email, email, new URL("/profile", ctx.config.appUrl).toString()),
  );
  return { pendingEmail: email };
}

async function pendingOf(ctx: Ctx, user: UserRow) {
  const [pending] = await ctx.database.db.select().from(emailChanges).where(eq(emailChanges.userId, user.id));
  if (!pending) throw new BadRequestError(TEXT.nothingPending, "no-pending-email");
  return pending;
}

/** A new link to the pending address (the old one stops working). */
export async function resendEmailChange(ctx: Ctx, actor: Actor): Promise<EmailChangePending> {
  const pending = await pendingOf(ctx, actor.user);
  const link = await issueLink(ctx, actor.user.id, pending.newEmail);
  await ctx.mailer.send(emailChangeMail(pending.newEmail, link));
  return { pendingEmail: pending.newEmail };
}

export async function cancelEmailChange(ctx: Ctx, actor: Actor) {
  await ctx.database.db.transaction(async (tx) => {
    await tx.delete(emailChanges).where(eq(emailChanges.userId, actor.user.id));
    await tx
      .update(users)
      .set({ pendingEmail: null, updatedAt: new Date() })
      .where(eq(users.id, actor.user.id));
  });
}

/** Follows a link: the pending address becomes the account's. */
export async function confirmEmailChange(ctx: Ctx, token: string): Promise<EmailChanged> {
  const { db } = ctx.database;
  const [pending] = await db
    .select()
    .from(emailChanges)
    .where(eq(emailChanges.tokenHash, hashOf(token)));
  if (!pending) throw new BadRequestError(TEXT.invalidLink, "auth/invalid-action-code");
  if (pending.expiresAt.getTime() <= Date.now())
    throw new BadRequestError(TEXT.expiredLink, "auth/expired-action-code");
  await assertFree(ctx, pending.newEmail, pending.userId);
  try {
    return await db.transaction(async (tx) => {
      // Taken by deleting it: of two clicks at once, one changes the address and the other is refused.
      const [taken] = await tx
        .delete(emailChanges)
        .where(eq(emailChanges.tokenHash, pending.tokenHash))
        .returning();
      if (!taken) throw new BadRequestError(TEXT.invalidLink, "auth/invalid-action-code");
      await tx
        .update(users)
        .set({ email: taken.newEmail, emailVerified: true, pendingEmail: null, updatedAt: new Date() })
        .where(eq(users.id, taken.userId));
      return { email: taken.newEmail };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(TEXT.inUse, "auth/email-already-in-use");
    throw error;
  }
}
