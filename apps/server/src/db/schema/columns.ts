/**
 * Columns many tables declare alike, each built anew for its table (a builder belongs to one column).
 * The SQL they make is what the tables declared before (no migration).
 */
import { type AnyPgColumn, text, timestamp } from "drizzle-orm/pg-core";

/** A required reference to the row this one belongs to, deleted with it (`project_id` → projects.id). */
export const belongsTo = (name: string, target: () => AnyPgColumn) =>
  text(name).notNull().references(target, { onDelete: "cascade" });

/** When the row was made: the database's time of the insert. */
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
