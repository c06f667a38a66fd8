/**
 * The durable job queue: pg-boss on the application's own database (PGlite or PostgreSQL), so a queued
 * job survives a restart and any app process may work it. Jobs carry ids, never payload blobs.
 */
import PgBoss from "pg-boss";
import type { DatabaseHandle, ExecuteSql } from "../db/index.ts";

export type Queue = PgBoss;

export interface QueueHandle {
  queue: Queue;
  /**
   * Stops taking jobs, lets running ones finish (up to `graceMs`; those still running are failed, so
   * they are retried), and waits for the queue's last statements, so the database may close after it.
   */
  stop(graceMs?: number): Promise<void>;
}

export async function startQueue(database: DatabaseHandle): Promise<QueueHandle> {
  const pending = new Set<Promise<unknown>>();
  let stopped = false;
  const executeSql: ExecuteSql = (text, values) => {
    // A job that outlived the grace period reports its end after the stop: that statement never runs
    // (its promise never settles; nothing waits on it) and the job, already failed, runs again.
    if (stopped) return new Promise<never>(() => {});
    const statement = database.executeSql(text, values);
    pending.add(statement);
    const forget = () => pending.delete(statement);
    statement.then(forget, forget);
    return statement;
  };
  const boss = new PgBoss({
    db: { executeSql },
    schedule: false,
    supervise: true,
    migrate: true,
  } as PgBoss.ConstructorOptions);
  boss.on("error", (error) => console.error("queue error", error));
  await boss.start();
  return {
    queue: boss,
    async stop(graceMs = 5000) {
      await boss.stop({ graceful: true, wait: true, timeout: graceMs });
      stopped = true;
      await Promise.allSettled([...pending]);
    },
  };
}
