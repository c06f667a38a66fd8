/**
 * Prepared queries, built once per database handle and name. On the hot paths (the session, loading a
 * project, a page, a version; the project list) composing a Drizzle query costs more than running it;
 * a prepared statement is composed once and executed with placeholders.
 */
import type { Database } from "./index.ts";

const statements = new WeakMap<object, Map<string, unknown>>();

export function prepared<Statement>(db: Database, name: string, build: () => Statement): Statement {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  let statement = byName.get(name) as Statement | undefined;
  if (!statement) {
    statement = build();
    byName.set(name, statement);
  }
  return statement;
}
