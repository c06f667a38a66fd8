/**
 * Refer & Earn at sign-up (SPEC §2; issue #34 item 4), called from better-auth's hooks (auth.ts): the account
 * created from a browser holding a referral link's cookie is recorded as its referrer's (`claimReferral`),
 * and once the friend proves their address the referrer gets 30 more days of the Standard plan
 * (`rewardReferral`). The referral link and counts are modules/referrals.
 */
import { REFERRAL_REWARD, referralCodeSchema } from "@redline/shared";
import { and, count, eq, isNotNull, isNull } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { referrals, users } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import { record } from "../../lib/ledger.ts";
import { activePrivilege } from "../plans/plans.ts";

const DAY_MS = 86_400_000;

/**
 * Records that `newUserId` signed up through `code`'s link — unless the code is nobody's, or the person
 * signing up is its owner (`signedInAs`: the session the sign-up request carried). Returns whether it did.
 */
export async function claimReferral(
  db: Database,
  newUserId: string,
  code: string,
  signedInAs: string | null,
): Promise<boolean> {
  const parsed = referralCodeSchema.safeParse(code);
  if (!parsed.success) return false;
  const [referrer] = await db.select({ id: users.id }).from(users).where(eq(users.referralCode, parsed.data));
  if (!referrer || referrer.id === newUserId || referrer.id === signedInAs) return false;
  const made = await db
    .insert(referrals)
    .values({ id: newId(), referrerId: referrer.id, referredId: newUserId })
    .onConflictDoNothing()
    .returning({ id: referrals.id });
  return made.length > 0;
}

/**
 * The friend proved their address: their referrer gets 30 more days of Standard (from today, or from the
 * end of the months already running), once per friend, up to the cap. A referrer holding a privilege
 * without an end (granted by an operator or a privilege link) keeps it as it is.
 */
export async function rewardReferral(db: Database, referredId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [referral] = await tx
      .select()
      .from(referrals)
      .where(and(eq(referrals.referredId, referredId), isNull(referrals.rewardedAt)))
      .for("update");
    if (!referral) return;
    const [referrer] = await tx.select().from(users).where(eq(users.id, referral.referrerId)).for("update");
    if (!referrer) return;
    const [{ rewarded } = { rewarded: 0 }] = await tx
      .select({ rewarded: count() })
      .from(referrals)
      .where(and(eq(referrals.referrerId, referrer.id), isNotNull(referrals.rewardedAt)));
    if (rewarded >= REFERRAL_REWARD.maxRewards) return;
    const now = new Date();
    const isPermanent = referrer.privilege !== null && referrer.privilegeUntil === null;
    if (!isPermanent) {
      const running =
        activePrivilege(referrer) === REFERRAL_REWARD.privilege ? referrer.privilegeUntil : null;
      const from = running && running > now ? running : now;
      await tx
        .update(users)
        .set({
          privilege: REFERRAL_REWARD.privilege,
          privilegeUntil: new Date(from.getTime() + REFERRAL_REWARD.days * DAY_MS),
          updatedAt: now,
        })
        .where(eq(users.id, referrer.id));
    }
    await tx.update(referrals).set({ rewardedAt: now }).where(eq(referrals.id, referral.id));
    await record(tx, { type: "referral.rewarded", referrerId: referrer.id, referredId });
  });
}
