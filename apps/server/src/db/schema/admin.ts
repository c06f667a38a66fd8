import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";

/**
 * Every instance-admin action (modules/admin): who did what to which user or team, and when. Written in the
 * action's own transaction, never updated. The admin and the target are kept by e-mail / name as well as by
 * id, so the record still reads after either is deleted (no foreign keys on purpose).
 */
export const adminAudit = pgTable(
  "admin_audit",
  {
    id: text("id").primaryKey(),
    adminUserId: text("admin_user_id").notNull(),
    adminEmail: text("admin_email").notNull(),
    action: text("action").notNull(),
    targetKind: text("target_kind").$type<"user" | "team">().notNull(),
    targetId: text("target_id").notNull(),
    targetLabel: text("target_label").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [index("admin_audit_created_idx").on(table.createdAt)],
);

export type AdminAuditRow = typeof adminAudit.$inferSelect;
