/**
 * Refer & Earn (SPEC §2; issue #34 item 4). A person's link is `/r/{code}` (their code made the first time
 * they open Refer & Earn); following it leaves the code in a cookie (referrals.routes.ts), and the account
 * created from that browser is recorded as theirs (`claimReferral`, from better-auth's user-creation hook).
 * Once the friend proves their e-mail address (`rewardReferral`, from the verification hook, or at once for
 * a Google sign-up), the referrer gets 30 more days of the Standard plan as a privilege, up to 12 rewards.
 *
 * A link cannot be self-referred (the person signing up must not be the referrer — their session on the
 * sign-up request counts as them) or replayed (one row per new account; a reward once per row, under a
 * row lock).
 */
import { randomBytes } from "node:crypto";
import { REFERRAL_REWARD, type Referral } from "@redline/shared";
import { and, count, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { referrals, users } from "../../db/schema/index.ts";
import { isUniqueViolation } from "../../lib/errors.ts";
import { operation } from "../../lib/operations.ts";
import type { Actor } from "../auth/session.ts";
import { activePrivilege } from "../plans/plans.ts";

/** Codes are short, unambiguous (no 0/O, 1/I/L) and case-insensitive. */
const ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

function newCode(): string {
  const bytes = randomBytes(8);
  return Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join("");
}

/** The person's row as Refer & Earn reads it: their code (made once, the first time) and privilege. */
async function referrerOf(db: Database, userId: string) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [row] = await db
      .select({ code: users.referralCode, privilege: users.privilege, privilegeUntil: users.privilegeUntil })
      .from(users)
      .where(eq(users.id, userId));
    if (!row) throw new Error("the signed-in person has no row");
    if (row.code) return { ...row, code: row.code };
    try {
      await db
        .update(users)
        .set({ referralCode: newCode() })
        .where(and(eq(users.id, userId), isNull(users.referralCode)));
    } catch (error) {
      // Another person's code already (the unique index): try another; anything else is a real failure.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error("could not make a referral code");
}

export const readReferral = operation(
  "referrals.read",
  z.object({}).strict(),
  async (ctx: AppContext, actor: Actor): Promise<{ data: Referral }> => {
    const { db } = ctx.database;
    const me = await referrerOf(db, actor.user.id);
    const [counts] = await db
      .select({ signUps: count(), rewarded: count(referrals.rewardedAt) })
      .from(referrals)
      .where(eq(referrals.referrerId, actor.user.id));
    const running = activePrivilege(me) === REFERRAL_REWARD.privilege && me.privilegeUntil;
    return {
      data: {
        link: `${ctx.config.appUrl}/r/${me.code}`,
        signUps: counts?.signUps ?? 0,
        rewarded: counts?.rewarded ?? 0,
        maxRewards: REFERRAL_REWARD.maxRewards,
        standardUntil: running ? running.toISOString() : null,
      },
    };
  },
);
