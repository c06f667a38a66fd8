/**
 * Every write is an operation (lib/operations.ts, ADR 0033): no route file opens a transaction. The
 * route files below still hold theirs until they are moved (issue #28); the list only shrinks — a file
 * that no longer opens one must leave it.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const modulesDir = import.meta.dirname;

const NOT_YET_MOVED: string[] = [];

function routeFilesOpeningTransactions(): string[] {
  return readdirSync(modulesDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.routes\.ts$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => /\.transaction\(/.test(readFileSync(file, "utf8")))
    .map((file) => path.relative(modulesDir, file).split(path.sep).join("/"))
    .sort();
}

describe("writes are operations", () => {
  it("opens no transaction in a route file, but in the operations it calls", () => {
    expect(routeFilesOpeningTransactions()).toEqual(NOT_YET_MOVED);
  });
});
