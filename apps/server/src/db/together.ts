/**
 * Reads that do not depend on each other, run side by side on the pool (each on a connection of its own)
 * and one after another inside a transaction: a transaction is one connection, which runs one query at a
 * time — pg would queue the overlap itself, and warns that it stops doing so in pg 9.
 */
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Database } from "./index.ts";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export async function together<T extends readonly unknown[]>(
  db: Database | Transaction,
  reads: readonly [...{ [K in keyof T]: () => PromiseLike<T[K]> }],
): Promise<T> {
  if (!(db instanceof PgTransaction)) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}
