/**
 * The other ways to hold a plan (SPEC §3, §7): a privilege link (`/signup/start-privilege/team`), a
 * lifetime-deal code (tiers 1–3) and a partner-program code (plans A–D). All are minted by the operator
 * (`npm run grant`), signed with the instance's secret so nobody can forge one, and single-use: taking one
 * records it in `redeemed_grants` in the transaction that grants, so a second use fails. A refunded
 * lifetime code is revoked: the tier leaves the user's lifetime deal, and with none left the deal is
 * disabled — the plan falls back to whatever else they hold. A partner plan is the highest of the user's
 * partner codes still standing, so revoking one falls back to the next (or to none).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { PARTNER_PLANS, type PartnerPlan } from "@redline/shared";
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { redeemedGrants, type UserRow, users } from "../../db/schema/index.ts";
import { ConflictError, NotFoundError } from "../../lib/errors.ts";

/** Plans a privilege link may grant (the path segment of /signup/start-privilege/{plan}). */
export const PRIVILEGE_PLANS = ["team", "pro", "standard"] as const;
export type PrivilegePlan = (typeof PRIVILEGE_PLANS)[number];
export const LIFETIME_TIER_NUMBERS = [1, 2, 3] as const;
/** Partner-program plans, lowest first (SPEC §9 plans A–D). */
export const PARTNER_PLAN_NAMES = Object.keys(PARTNER_PLANS).sort() as PartnerPlan[];

const sign = (secret: string, text: string) =>
  createHmac("sha256", secret).update(`redline-grant:${text}`).digest("base64url").slice(0, 22);

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** `{plan}.{nonce}.{expiry, base 36 seconds}.{signature}` — carried in the link's `token` query. */
export function mintPrivilegeToken(secret: string, plan: PrivilegePlan, validDays = 30): string {
  const nonce = randomBytes(12).toString("base64url");
  const expires = Math.floor(Date.now() / 1000 + validDays * 86_400).toString(36);
  const body = `${plan}.${nonce}.${expires}`;
  return `${body}.${sign(secret, `privilege:${body}`)}`;
}

export function privilegeLink(appUrl: string, secret: string, plan: PrivilegePlan, validDays?: number) {
  return `${appUrl}/signup/start-privilege/${plan}?token=${mintPrivilegeToken(secret, plan, validDays)}`;
}

/** `RL{tier}-{nonce}-{signature}`: what a lifetime-deal buyer receives. */
export function mintLifetimeCode(secret: string, tier: 1 | 2 | 3): string {
  const nonce = randomBytes(9).toString("base64url").replace(/[-_]/g, "x");
  return `RL${tier}-${nonce}-${sign(secret, `lifetime:${tier}:${nonce}`)}`;
}

/** `RP{plan}-{nonce}-{signature}`: what a partner program hands its members. */
export function mintPartnerCode(secret: string, plan: PartnerPlan): string {
  const nonce = randomBytes(9).toString("base64url").replace(/[-_]/g, "x");
  return `RP${plan}-${nonce}-${sign(secret, `partner:${plan}:${nonce}`)}`;
}

const INVALID_LINK = "This privilege link is not valid.";
const INVALID_CODE = "This code is not valid.";
const GRANT_USED = "This has already been used.";

export function readPrivilegeToken(secret: string, token: string): { plan: PrivilegePlan; nonce: string } {
  const [plan, nonce, expires, signature, extra] = token.split(".");
  if (extra !== undefined || !plan || !nonce || !expires || !signature)
    throw new NotFoundError(INVALID_LINK, "grant-invalid");
  if (!sameText(signature, sign(secret, `privilege:${plan}.${nonce}.${expires}`)))
    throw new NotFoundError(INVALID_LINK, "grant-invalid");
  if (!(PRIVILEGE_PLANS as readonly string[]).includes(plan))
    throw new NotFoundError(INVALID_LINK, "grant-invalid");
  if (Number.parseInt(expires, 36) * 1000 < Date.now())
    throw new ConflictError("This privilege link has expired.", "grant-expired");
  return { plan: plan as PrivilegePlan, nonce };
}

export function readLifetimeCode(secret: string, code: string): { tier: 1 | 2 | 3; id: string } {
  const match = /^RL([123])-([A-Za-z0-9]{12})-([A-Za-z0-9_-]{22})$/.exec(code.trim());
  if (!match) throw new NotFoundError(INVALID_CODE, "grant-invalid");
  const tier = Number(match[1]) as 1 | 2 | 3;
  if (!sameText(match[3]!, sign(secret, `lifetime:${tier}:${match[2]}`)))
    throw new NotFoundError(INVALID_CODE, "grant-invalid");
  return { tier, id: `lifetime:${match[2]}` };
}

export function readPartnerCode(secret: string, code: string): { plan: PartnerPlan; id: string } {
  const match = /^RP([A-D])-([A-Za-z0-9]{12})-([A-Za-z0-9_-]{22})$/.exec(code.trim());
  if (!match) throw new NotFoundError(INVALID_CODE, "grant-invalid");
  const plan = match[1] as PartnerPlan;
  if (!sameText(match[3]!, sign(secret, `partner:${plan}:${match[2]}`)))
    throw new NotFoundError(INVALID_CODE, "grant-invalid");
  return { plan, id: `partner:${match[2]}` };
}

/**
 * Whether a privilege link can still be taken, and if not why, in the words taking it would fail with —
 * asked by the sign-up page before it promises the plan. Reads only.
 */
export async function privilegeLinkState(
  db: Database,
  secret: string,
  plan: string,
  token: string,
): Promise<{ usable: boolean; message: string | null }> {
  let nonce: string;
  try {
    const granted = readPrivilegeToken(secret, token);
    if (granted.plan !== plan) return { usable: false, message: INVALID_LINK };
    nonce = granted.nonce;
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof ConflictError)
      return { usable: false, message: error.message };
    throw error;
  }
  const [taken] = await db
    .select({ id: redeemedGrants.id })
    .from(redeemedGrants)
    .where(eq(redeemedGrants.id, `privilege:${nonce}`))
    .limit(1);
  return taken ? { usable: false, message: GRANT_USED } : { usable: true, message: null };
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Takes a single-use grant for the user, or fails with 409 when it was already taken. */
async function take(
  tx: Transaction,
  grant: { id: string; kind: "privilege" | "lifetime" | "partner"; plan: string },
  userId: string,
) {
  const [taken] = await tx
    .insert(redeemedGrants)
    .values({ ...grant, userId })
    .onConflictDoNothing()
    .returning({ id: redeemedGrants.id });
  if (!taken) throw new ConflictError(GRANT_USED, "grant-used");
}

export async function redeemPrivilege(
  db: Database,
  secret: string,
  userId: string,
  plan: string,
  token: string,
) {
  const granted = readPrivilegeToken(secret, token);
  if (granted.plan !== plan) throw new NotFoundError(INVALID_LINK, "grant-invalid");
  return db.transaction(async (tx) => {
    await take(tx, { id: `privilege:${granted.nonce}`, kind: "privilege", plan: granted.plan }, userId);
    const [user] = await tx
      .update(users)
      .set({ privilege: granted.plan, privilegeUntil: null, updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    return user!;
  });
}

const lifetimeDealOf = (invoices: { plan: string }[]): NonNullable<UserRow["lifetimeDeal"]> => ({
  isDisabled: invoices.length === 0,
  invoices,
});

export async function redeemLifetimeCode(db: Database, secret: string, userId: string, code: string) {
  const { tier, id } = readLifetimeCode(secret, code);
  return db.transaction(async (tx) => {
    await take(tx, { id, kind: "lifetime", plan: `tier_${tier}` }, userId);
    const [row] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    const invoices = [...(row!.lifetimeDeal?.invoices ?? []), { plan: `tier_${tier}`, code: id }];
    const [user] = await tx
      .update(users)
      .set({ lifetimeDeal: lifetimeDealOf(invoices), updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    return user!;
  });
}

/** The highest partner plan among the user's partner codes still standing (row-locked by the caller). */
async function standingPartnerPlan(tx: Transaction, userId: string): Promise<PartnerPlan | null> {
  const standing = await tx
    .select({ plan: redeemedGrants.plan })
    .from(redeemedGrants)
    .where(
      and(
        eq(redeemedGrants.userId, userId),
        eq(redeemedGrants.kind, "partner"),
        isNull(redeemedGrants.revokedAt),
      ),
    );
  const plans = standing.map((grant) => grant.plan as PartnerPlan);
  return PARTNER_PLAN_NAMES.findLast((plan) => plans.includes(plan)) ?? null;
}

export async function redeemPartnerCode(db: Database, secret: string, userId: string, code: string) {
  const { plan, id } = readPartnerCode(secret, code);
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    await take(tx, { id, kind: "partner", plan }, userId);
    const [user] = await tx
      .update(users)
      .set({ partnerPlan: await standingPartnerPlan(tx, userId), updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    return user!;
  });
}

/**
 * A refund or deactivation (lifetime-deal provider or partner program): the code's tier or plan leaves the
 * user. Answers the user's id, or null when the code was never taken or is already revoked.
 */
export async function revokeCode(db: Database, secret: string, code: string): Promise<string | null> {
  const partner = code.trim().startsWith("RP");
  const { id } = partner ? readPartnerCode(secret, code) : readLifetimeCode(secret, code);
  return db.transaction(async (tx) => {
    const [grant] = await tx
      .update(redeemedGrants)
      .set({ revokedAt: new Date() })
      .where(and(eq(redeemedGrants.id, id), isNull(redeemedGrants.revokedAt)))
      .returning();
    if (!grant) return null;
    const [row] = await tx.select().from(users).where(eq(users.id, grant.userId)).for("update");
    if (partner) {
      await tx
        .update(users)
        .set({ partnerPlan: await standingPartnerPlan(tx, grant.userId), updatedAt: new Date() })
        .where(eq(users.id, grant.userId));
      return grant.userId;
    }
    const invoices = (row!.lifetimeDeal?.invoices ?? []).filter(
      (invoice) => (invoice as { code?: string }).code !== id,
    );
    await tx
      .update(users)
      .set({ lifetimeDeal: lifetimeDealOf(invoices), updatedAt: new Date() })
      .where(eq(users.id, grant.userId));
    return grant.userId;
  });
}
