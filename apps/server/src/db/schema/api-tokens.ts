import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { sessions } from "./auth.ts";
import { belongsTo, createdAt } from "./columns.ts";
import { users } from "./users.ts";

/**
 * Public API tokens (Account Settings → API tokens): a person's own key for scripts, agents and the MCP
 * server. Only a SHA-256 hash of the secret is kept; `prefix` is its first characters, shown so a token can
 * be recognised. Revoking deletes the row, so every process refuses the token on its next request.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: belongsTo("user_id", () => users.id),
    name: text("name").notNull(),
    /** "read" (GET only) or "read-write". */
    scope: text("scope").$type<"read" | "read-write">().notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    prefix: text("prefix").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: createdAt(),
    /**
     * "api": a token the person made; "extension": the browser extension's credential, handed to it from
     * `sessionId` (ADR 0037) — signing out deletes that session and, by the cascade, the credential.
     */
    kind: text("kind").$type<"api" | "extension">().notNull().default("api"),
    sessionId: text("session_id").references(() => sessions.id, { onDelete: "cascade" }),
  },
  (table) => [
    index("api_tokens_user_idx").on(table.userId),
    index("api_tokens_session_idx").on(table.sessionId),
  ],
);

export type ApiTokenRow = typeof apiTokens.$inferSelect;
