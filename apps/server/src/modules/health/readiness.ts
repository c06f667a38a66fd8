/**
 * Readiness: whether this process should get traffic. Not ready while the database or the job queue does
 * not answer (each check has a deadline, so a hung connection is an answer too), nor while draining: from
 * SIGTERM on, a load balancer's health check sees 503 and sends new requests elsewhere while in-flight
 * ones finish (main.ts).
 */
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";

export interface ReadinessReport {
  ready: boolean;
  /** One sentence per failing check (empty when ready). */
  reasons: string[];
}

export interface Readiness {
  /** From now on the process answers not ready ("draining"); liveness is unchanged. */
  drain(): void;
  readonly isDraining: boolean;
  check(): Promise<ReadinessReport>;
}

/** How long one check may take before it counts as failed. */
const CHECK_DEADLINE_MS = 2000;

export function createReadiness(ctx: Pick<AppContext, "database" | "queue">): Readiness {
  let isDraining = false;
  return {
    drain() {
      isDraining = true;
    },
    get isDraining() {
      return isDraining;
    },
    async check() {
      if (isDraining) return { ready: false, reasons: ["Draining: the process is shutting down."] };
      const failures = await Promise.all([
        failure("The database does not answer.", () => ctx.database.db.execute(sql`select 1`)),
        failure("The job queue does not answer.", () => ctx.queue.isInstalled()),
      ]);
      const reasons = failures.filter((reason): reason is string => reason !== null);
      return { ready: reasons.length === 0, reasons };
    },
  };
}

async function failure(reason: string, run: () => Promise<unknown>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), CHECK_DEADLINE_MS);
  });
  try {
    const outcome = await Promise.race([run(), deadline]);
    return outcome === "late" ? reason : null;
  } catch {
    return reason;
  } finally {
    clearTimeout(timer);
  }
}
