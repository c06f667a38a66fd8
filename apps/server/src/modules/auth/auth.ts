/**
 * Accounts through better-auth: e-mail + password (scrypt), e-mail verification, password reset,
 * account deletion with the password, Google when configured, database-backed rate limits.
 * Links in mails point at the SPA's /user-action route, which hands the code back to the API.
 */
import { REFERRAL_COOKIE } from "@redline/shared";
import { APIError, betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { accounts, rateLimits, sessions, users, verifications } from "../../db/schema/index.ts";
import type { AppConfig } from "../../env.ts";
import { record } from "../../lib/ledger.ts";
import type { Mailer } from "../../lib/mail/mailer.ts";
import { resetPasswordMail, verificationMail } from "../../lib/mail/templates.ts";
import { googleOAuthConfig } from "./google.ts";
import { claimReferral, rewardReferral } from "./referral-signup.ts";
import { sendWelcomeMail } from "./welcome.ts";

/** Header carrying the client IP as Fastify resolved it (client-sent values are overwritten). */
export const CLIENT_IP_HEADER = "x-redline-client-ip";

/**
 * The SPA's link for a mailed code. `continueUrl` (the Firebase name): where the person goes once it is
 * applied — the path they asked for when they signed up (SPEC §2), e.g. the team an invitation named.
 */
export function userActionUrl(
  appUrl: string,
  mode: "verifyEmail" | "resetPassword" | "verifyAndChangeEmail",
  code: string,
  continueUrl: string | null = null,
): string {
  const url = new URL("/user-action", appUrl);
  url.searchParams.set("mode", mode);
  url.searchParams.set("oobCode", code);
  if (continueUrl) url.searchParams.set("continueUrl", continueUrl);
  return url.toString();
}

/**
 * The path a sign-up asked to go on to: better-auth passes the `callbackURL` it was given in the link it
 * makes for its own verify route. Only an app-relative path other than `/` is kept (never another site).
 */
export function continuePathOf(betterAuthUrl: string): string | null {
  let callback: string | null;
  try {
    callback = new URL(betterAuthUrl).searchParams.get("callbackURL");
  } catch {
    return null;
  }
  if (!callback || callback === "/" || !callback.startsWith("/") || /^\/[/\\]/.test(callback)) return null;
  return callback;
}

/** What the rest of the app tells sign-in about (wired in app.ts, so auth depends on no product module). */
export interface AuthHooks {
  /** The trusted-origins rule (teams/trusted-origins.ts): people sign in from each of them. */
  isTrustedOrigin?: (origin: string | null | undefined) => Promise<boolean>;
  /** Runs once a person's address is proven, and at each sign-in of a verified person: invitations sent
   *  to their address (projects, teams) become theirs. */
  claimInvitations?: (db: Database, user: { id: string; email: string }) => Promise<void>;
}

export function createAuth(
  config: AppConfig,
  db: Database,
  mailer: Mailer,
  { isTrustedOrigin = async () => false, claimInvitations = async () => {} }: AuthHooks = {},
) {
  const perMinute = { window: 60, max: config.authRateLimit };
  return betterAuth({
    appName: "Redline",
    baseURL: config.appUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    trustedOrigins: async (request) => {
      const origin = request?.headers.get("origin") ?? null;
      return origin && (await isTrustedOrigin(origin)) ? [config.appUrl, origin] : [config.appUrl];
    },
    telemetry: { enabled: false },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { users, sessions, accounts, verifications, rate_limits: rateLimits },
    }),
    user: {
      modelName: "users",
      fields: { name: "displayName", image: "photoURL" },
      additionalFields: { signupSource: { type: "string", required: false, input: false } },
      deleteUser: { enabled: true },
    },
    session: { modelName: "sessions", freshAge: config.authFreshAgeSeconds },
    account: { modelName: "accounts" },
    verification: { modelName: "verifications" },
    rateLimit: {
      enabled: config.rateLimitEnabled,
      storage: "database",
      modelName: "rate_limits",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": perMinute,
        "/sign-in/social": perMinute,
        "/sign-up/email": perMinute,
        "/request-password-reset": perMinute,
        "/reset-password": perMinute,
        "/change-password": perMinute,
        "/delete-user": perMinute,
        "/send-verification-email": perMinute,
      },
    },
    advanced: { ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] } },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        await mailer.send(
          resetPasswordMail(user.email, userActionUrl(config.appUrl, "resetPassword", token)),
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // Invitations sent to this e-mail (projects, teams) become the user's once the address is proven.
      afterEmailVerification: async (user) => {
        await claimInvitations(db, user);
        // A friend who signed up through someone's referral link has now proved their address.
        await rewardReferral(db, user.id);
      },
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user, token, url }) => {
        const link = userActionUrl(config.appUrl, "verifyEmail", token, continuePathOf(url));
        await mailer.send(verificationMail(user.email, link));
      },
    },
    // Google (or its stand-in) through the generic OAuth plugin: its endpoints are configurable (ADR 0032).
    plugins: config.google ? [genericOAuth({ config: [googleOAuthConfig(config, config.google)] })] : [],
    databaseHooks: {
      session: {
        create: {
          // An account an instance admin disabled gets no session, whatever the way in (after the password
          // is checked, so the answer tells nothing to someone who does not know it).
          before: async (session) => {
            const [user] = await db
              .select({ disabledAt: users.disabledAt })
              .from(users)
              .where(eq(users.id, session.userId));
            if (user?.disabledAt)
              throw new APIError("FORBIDDEN", {
                code: "USER_DISABLED",
                message: "This account is disabled.",
              });
          },
          after: async (session, ctx) => {
            const [user] = await db.select().from(users).where(eq(users.id, session.userId));
            if (user?.emailVerified) await claimInvitations(db, user);
            // A sign-in with a password or through Google (SPEC §7 SignIn); the session a sign-up or a
            // verification link opens by itself is not one.
            if (isSignIn(ctx?.path)) await record(db, { type: "user.signed-in", userId: session.userId });
          },
        },
      },
      user: {
        create: {
          before: async (user, ctx) => ({
            data: { ...user, signupSource: ctx?.path?.startsWith("/sign-up") ? "email" : "google" },
          }),
          // A sign-up through Google proves no address by mail, so no verification mail welcomes it:
          // the welcome mail does (SPEC §7 welcome-user), once.
          after: async (user, ctx) => {
            const source = (user as { signupSource?: string }).signupSource;
            await record(db, { type: "user.signed-up", userId: user.id, source });
            // Signed up through a referral link (its cookie, referrals.routes.ts): the referrer's, unless
            // the one signing up is the referrer themself (their session on this request).
            const code = cookieValue(ctx?.headers?.get("cookie"), REFERRAL_COOKIE);
            if (code && ctx) {
              const session = await getSessionFromCtx(ctx).catch(() => null);
              await claimReferral(db, user.id, code, session?.user.id ?? null);
            }
            if (source === "google") {
              await sendWelcomeMail(db, mailer, config.appUrl, user.id);
              await rewardReferral(db, user.id);
            }
          },
        },
      },
    },
    hooks: {
      // A password change needs a recent sign-in (SPEC §5): older sessions must sign in again.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/change-password") return;
        const session = await getSessionFromCtx(ctx);
        if (!session) return;
        const age = Date.now() - new Date(session.session.createdAt).getTime();
        if (age > config.authFreshAgeSeconds * 1000) {
          throw new APIError("UNAUTHORIZED", {
            code: "REQUIRES_RECENT_LOGIN",
            message: "Sign in again to change your password.",
          });
        }
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** The better-auth paths where a person signs in: a password, or the return from Google's consent. */
function isSignIn(path: string | undefined): boolean {
  return path !== undefined && (path.startsWith("/sign-in/") || path.startsWith("/callback/"));
}

/** One cookie's value from a Cookie header, or null. */
function cookieValue(header: string | null | undefined, name: string): string | null {
  for (const part of header?.split(";") ?? []) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return null;
}
