/**
 * The durable job queue: pg-boss on the application's own database (PGlite or PostgreSQL), so a queued
 * job survives a restart and any app process may work it. Jobs carry ids, never payload blobs.
 */
import PgBoss from "pg-boss";
import type { DatabaseHandle } from "../db/index.ts";

export type Queue = PgBoss;

export async function startQueue(database: DatabaseHandle): Promise<Queue> {
  const boss = new PgBoss({
    db: { executeSql: database.executeSql },
    schedule: false,
    supervise: true,
    migrate: true,
  } as PgBoss.ConstructorOptions);
  boss.on("error", (error) => console.error("queue error", error));
  await boss.start();
  return boss;
}
