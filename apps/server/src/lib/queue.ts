/**
 * The durable job queue: pg-boss on the application's own database (PGlite or PostgreSQL), so a queued
 * job survives a restart and any app process may work it. Jobs carry ids, never payload blobs.
 */
import { type SQL, sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import type { Database, DatabaseHandle, ExecuteSql } from "../db/index.ts";

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
  // Processes started together on one PostgreSQL (systemd starting app and worker units at once) create
  // the same queues at the same moment, and pg-boss's create_queue can deadlock with itself: the loser
  // tries again and finds the queue made.
  const createQueue = boss.createQueue.bind(boss);
  boss.createQueue = async (...args: Parameters<typeof createQueue>) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await createQueue(...args);
      } catch (error) {
        if ((error as { code?: string }).code !== "40P01" || attempt === 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
      }
    }
  };
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

/**
 * The queue's SQL run inside a transaction of ours (pg-boss `send(…, { db })`): a job asked for by a
 * write exists exactly when the write does. Positional parameters ($1, $2…) become bound values.
 */
export function inTransaction(tx: Pick<Database, "execute">): { executeSql: ExecuteSql } {
  return {
    async executeSql(text, values = []) {
      const chunks: SQL[] = text
        .split(/\$(\d+)/)
        .map((part, index) => (index % 2 === 1 ? sql`${values[Number(part) - 1] ?? null}` : sql.raw(part)));
      const result = await tx.execute(sql.join(chunks));
      return { rows: (result as unknown as { rows: unknown[] }).rows };
    },
  };
}
