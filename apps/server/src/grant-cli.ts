/**
 * `npm run grant -- <command>`: the operator's way to hand out plans outside card payments (SPEC §3).
 *   privilege <team|pro|standard> [days]  prints a single-use privilege sign-up link (default 30 days)
 *   lifetime <1|2|3> [count]              prints lifetime-deal codes of that tier
 *   partner <A|B|C|D> [count]             prints partner-program codes of that plan
 *   revoke <code>                         a refunded or deactivated lifetime or partner code: withdrawn
 * Reads the same environment as the server (AUTH_SECRET or DATA_DIR's generated secret, DATABASE_URL).
 * `revoke` opens the database: with the embedded PGlite, stop the server first (one writer per folder).
 */
import { openDatabase } from "./db/index.ts";
import { loadConfig } from "./env.ts";
import {
  LIFETIME_TIER_NUMBERS,
  mintLifetimeCode,
  mintPartnerCode,
  PARTNER_PLAN_NAMES,
  PRIVILEGE_PLANS,
  type PrivilegePlan,
  privilegeLink,
  revokeCode,
} from "./modules/plans/grants.ts";

const USAGE =
  "usage: npm run grant -- privilege <team|pro|standard> [days] | lifetime <1|2|3> [count] | partner <A|B|C|D> [count] | revoke <code>";

async function main(argv: string[]): Promise<number> {
  const config = loadConfig();
  const [command, arg, extra] = argv;
  if (command === "privilege" && (PRIVILEGE_PLANS as readonly string[]).includes(arg ?? "")) {
    const days = extra ? Number(extra) : 30;
    if (!Number.isFinite(days) || days <= 0) return fail(USAGE);
    console.log(privilegeLink(config.appUrl, config.authSecret, arg as PrivilegePlan, days));
    return 0;
  }
  const count = extra ? Number(extra) : 1;
  const countOk = Number.isInteger(count) && count >= 1 && count <= 10_000;
  if (command === "lifetime" && LIFETIME_TIER_NUMBERS.includes(Number(arg) as 1)) {
    if (!countOk) return fail(USAGE);
    for (let i = 0; i < count; i++)
      console.log(mintLifetimeCode(config.authSecret, Number(arg) as 1 | 2 | 3));
    return 0;
  }
  const partner = PARTNER_PLAN_NAMES.find((plan) => plan === arg);
  if (command === "partner" && partner) {
    if (!countOk) return fail(USAGE);
    for (let i = 0; i < count; i++) console.log(mintPartnerCode(config.authSecret, partner));
    return 0;
  }
  if (command === "revoke" && arg) {
    const database = await openDatabase(config);
    try {
      const userId = await revokeCode(database.db, config.authSecret, arg);
      console.log(userId ? `revoked for user ${userId}` : "not redeemed (or already revoked): nothing to do");
    } finally {
      await database.close();
    }
    return 0;
  }
  return fail(USAGE);
}

function fail(message: string): number {
  console.error(message);
  return 2;
}

process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
