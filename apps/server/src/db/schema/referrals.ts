import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { belongsTo, createdAt } from "./columns.ts";
import { users } from "./users.ts";

/**
 * Refer & Earn (SPEC §2, issue #34 item 4): who signed up through whose link — one row per new account
 * (so a link cannot count the same person twice) — and when the referrer was rewarded for it (once the
 * friend proved their e-mail address).
 */
export const referrals = pgTable(
  "referrals",
  {
    id: text("id").primaryKey(),
    referrerId: belongsTo("referrer_id", () => users.id),
    referredId: text("referred_id")
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    rewardedAt: timestamp("rewarded_at", { withTimezone: true }),
  },
  (table) => [index("referrals_referrer_idx").on(table.referrerId)],
);
