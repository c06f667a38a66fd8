/**
 * Every write is an operation (lib/operations.ts, ADR 0033): no route file opens a transaction or writes a
 * table itself — it calls the operation (issue #28).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import * as schema from "../db/schema/index.ts";

const modulesDir = import.meta.dirname;

/** The names route files give the schema's tables (the exported constants). */
const TABLE_NAMES = Object.entries(schema)
  .filter(([, value]) => is(value, PgTable) && getTableConfig(value as PgTable).name)
  .map(([name]) => name);
const WRITES = new RegExp(`\\.(insert|update|delete)\\(\\s*(${TABLE_NAMES.join("|")})\\s*\\)`);

function routeFiles(): { file: string; text: string }[] {
  return readdirSync(modulesDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.routes\.ts$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .map((file) => ({
      file: path.relative(modulesDir, file).split(path.sep).join("/"),
      text: readFileSync(file, "utf8"),
    }));
}

describe("writes are operations", () => {
  it("opens no transaction in a route file, but in the operations it calls", () => {
    expect(
      routeFiles()
        .filter(({ text }) => /\.transaction\(/.test(text))
        .map(({ file }) => file),
    ).toEqual([]);
  });

  it("writes no table in a route file, but in the operations it calls", () => {
    expect(TABLE_NAMES).toContain("users");
    const writing = routeFiles()
      .filter(({ text }) => WRITES.test(text))
      .map(({ file }) => file)
      .sort();
    expect(writing).toEqual([]);
  });
});
