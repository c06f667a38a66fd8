/**
 * Upgrades: a database made by the first release's schema (migration 0000 alone), with a row in every
 * table it has, is brought to the latest schema by the app's own migrator when the app starts — the rows
 * are still there, the early user signs in and works. And the rule of ADR 0031 for migrations written from
 * now on: nothing that would break the previous release while both run (drop, rename, a new NOT NULL
 * without default, a type change) unless the migration says why it is safe.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { hashPassword } from "better-auth/crypto";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { AppConfig } from "../env.ts";
import { emptyPostgres } from "../ops/empty-postgres.ts";
import { journal, latestLevel, levelOf, migrationsUpTo } from "../ops/migrations.ts";
import { ApiClient } from "../testing/http-client.ts";
import { startTestApp } from "../testing/test-app.ts";
import { drivers } from "../testing/test-db.ts";
import { migrationsFolder } from "./index.ts";

const PASSWORD = "an early adopter's password";

/** One row in each table of migration 0000, as the first release wrote them. */
async function seedFirstRelease(query: (text: string, values?: unknown[]) => Promise<unknown>) {
  await query(
    `INSERT INTO users (id, email, display_name, email_verified, onboarding, projects_count)
     VALUES ('u-early', 'early@example.com', 'Early Adopter', true, '{"tour":true}', 0)`,
  );
  await query(
    `INSERT INTO accounts (id, account_id, provider_id, user_id, password)
     VALUES ('a-early', 'u-early', 'credential', 'u-early', $1)`,
    [await hashPassword(PASSWORD)],
  );
  await query(
    `INSERT INTO sessions (id, token, user_id, expires_at, user_agent)
     VALUES ('s-early', 'token-early', 'u-early', now() + interval '1 day', 'Firefox 1.0')`,
  );
  await query(
    `INSERT INTO verifications (id, identifier, value, expires_at)
     VALUES ('v-early', 'reset-password:abc', 'u-early', now() + interval '1 hour')`,
  );
  await query(
    `INSERT INTO mailbox_messages ("to", subject, text) VALUES ('early@example.com', 'Welcome', 'Hello early')`,
  );
  await query(
    `INSERT INTO rate_limits (id, key, count, last_request) VALUES ('r-early', '127.0.0.1|/sign-in', 1, 1)`,
  );
}

const SEEDED = ["accounts", "mailbox_messages", "rate_limits", "sessions", "users", "verifications"];

describe.each(drivers())("upgrade from the first release's schema (%s)", (driver) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }, 60_000);

  it("migrates a filled first-release database to the latest schema, keeps its rows, and serves it", async () => {
    const first = migrationsUpTo(1);
    cleanups.push(async () => first.dispose());
    let config: Partial<AppConfig>;
    let tablesAtFirst: string[];
    if (driver === "pglite") {
      const database = new PGlite();
      await migratePglite(drizzlePglite(database), { migrationsFolder: first.folder });
      await seedFirstRelease((text, values) => database.query(text, values));
      tablesAtFirst = (
        await database.query<{ name: string }>(
          "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
        )
      ).rows.map((row) => row.name);
      expect(await levelOf((text) => database.query(text))).toEqual({ count: 1, tag: journal()[0]!.tag });
      const snapshot = (await database.dumpDataDir("none")) as Blob;
      await database.close();
      config = { pgliteDir: "memory://", pgliteSnapshot: snapshot };
    } else {
      const empty = await emptyPostgres();
      cleanups.push(() => empty.drop());
      const client = new pg.Client({ connectionString: empty.url });
      await client.connect();
      try {
        await migratePg(drizzlePg(client), { migrationsFolder: first.folder });
        await seedFirstRelease((text, values) => client.query(text, values));
        tablesAtFirst = (
          await client.query<{ name: string }>(
            "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
          )
        ).rows.map((row) => row.name);
      } finally {
        await client.end();
      }
      config = { databaseUrl: empty.url };
    }
    // Every table the first release had is filled.
    expect(tablesAtFirst.sort()).toEqual(SEEDED);

    // The app migrates on start (its own migrator, every later migration in turn).
    const t = await startTestApp({ driver, config });
    cleanups.push(() => t.close());
    const query = async (text: string) => t.ctx.database.executeSql(text);
    expect(await levelOf(query)).toEqual(latestLevel());
    for (const [table, id] of [
      ["users", "u-early"],
      ["accounts", "a-early"],
      ["sessions", "s-early"],
      ["verifications", "v-early"],
      ["rate_limits", "r-early"],
    ])
      expect((await query(`SELECT id FROM ${table} WHERE id = '${id}'`)).rows, table).toHaveLength(1);
    expect((await query(`SELECT subject FROM mailbox_messages`)).rows).toContainEqual({ subject: "Welcome" });

    // The early user signs in, is who they were, and works in the upgraded instance.
    const early = new ApiClient(t.url);
    const signIn = await early.post("/api/auth/sign-in/email", {
      email: "early@example.com",
      password: PASSWORD,
    });
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
    const me = (await early.get("/api/me")).body.data;
    expect([me.email, me.displayName]).toEqual(["early@example.com", "Early Adopter"]);
    const created = await early.post("/api/projects", { title: "After the upgrade" });
    expect(created.status).toBe(201);
    const titles = (await early.get("/api/projects")).body.data.map((p: { title: string }) => p.title);
    expect(titles).toContain("After the upgrade");
  }, 120_000);
});

/**
 * ADR 0031: during a rolling upgrade the previous release runs on the new schema, so a migration may only
 * expand it. A statement that would break the previous release's queries needs a line
 * `-- rolling-upgrade: <why it is safe>` in the migration (e.g. the column was unused for a release).
 */
const BREAKING = [
  /\bDROP\s+(TABLE|COLUMN|VIEW)\b/i,
  /\bRENAME\b/i,
  /\bALTER\s+COLUMN\s+\S+\s+(SET\s+NOT\s+NULL|(SET\s+DATA\s+)?TYPE)\b/i,
  /\bADD\s+COLUMN\s+(?:(?!DEFAULT|GENERATED)[^,;])*\bNOT\s+NULL\b(?:(?!DEFAULT|GENERATED)[^,;])*(?:;|,|$)/i,
];

function breakingStatements(sql: string): string[] {
  if (/^--\s*rolling-upgrade:\s*\S/im.test(sql)) return [];
  return sql
    .split(/--> statement-breakpoint|;\s*\n/)
    .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
    .filter((statement) => BREAKING.some((pattern) => pattern.test(statement)));
}

describe("migrations keep the previous release running (ADR 0031)", () => {
  it("flags drops, renames, new NOT NULL columns without a default and type changes unless annotated", () => {
    expect(breakingStatements(`ALTER TABLE "t" DROP COLUMN "a";`)).toHaveLength(1);
    expect(breakingStatements(`ALTER TABLE "t" RENAME COLUMN "a" TO "b";`)).toHaveLength(1);
    expect(breakingStatements(`ALTER TABLE "t" ADD COLUMN "c" text NOT NULL;`)).toHaveLength(1);
    expect(breakingStatements(`ALTER TABLE "t" ALTER COLUMN "c" SET DATA TYPE bigint;`)).toHaveLength(1);
    expect(breakingStatements(`ALTER TABLE "t" ADD COLUMN "c" text DEFAULT '' NOT NULL;`)).toEqual([]);
    expect(breakingStatements(`ALTER TABLE "t" ADD COLUMN "c" text;`)).toEqual([]);
    expect(
      breakingStatements(`-- rolling-upgrade: "a" unused since 0.4\nALTER TABLE "t" DROP COLUMN "a";`),
    ).toEqual([]);
  });

  it("no migration breaks the release before it without saying why", () => {
    const offending = journal().flatMap((entry) =>
      breakingStatements(readFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), "utf8")).map(
        (statement) => `${entry.tag}: ${statement.slice(0, 120)}`,
      ),
    );
    expect(offending).toEqual([]);
  });
});
