/**
 * Mail that leaves through the durable outbox (issue #16): `send` only stores the mail (`outgoing_mails`)
 * and returns, so a slow or failing mail server never slows or fails a request. Delivery starts at once
 * in this process; a failed attempt is retried by the job queue with a growing delay; mail still undelivered
 * at start-up (a crash, a stop mid-delivery) is picked up again. A delivery claims its row for a lease, so
 * the immediate attempt, a retry and another process never send one mail twice while the lease holds.
 * A delivered mail's row keeps its recipient and subject only.
 */
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { outgoingMails } from "../../db/schema/index.ts";
import { newId } from "../ids.ts";
import type { Queue } from "../queue.ts";
import type { Mailer, MailInput } from "./mailer.ts";

export const MAIL_QUEUE = "mail-delivery";
/** How long one delivery may hold a mail before another may try it. */
const LEASE_MS = 2 * 60 * 1000;
/** Attempts before a mail is given up (its last error stays on the row). */
export const MAX_ATTEMPTS = 12;
/** Undelivered mail older than this is not retried at start-up (old news). */
const CATCH_UP_MS = 3 * 24 * 60 * 60 * 1000;

/** The wait before attempt `n + 1`: 5 s, 10 s, 20 s … at most an hour. */
export const retryDelaySeconds = (attempts: number) => Math.min(5 * 2 ** Math.max(0, attempts - 1), 3600);

export interface DurableMailer extends Mailer {
  /** Works the retry queue in this process and re-queues what no process delivered. */
  start(queue: Queue): Promise<void>;
  /** Waits for deliveries this process started (their rows keep their lease otherwise). */
  stop(timeoutMs?: number): Promise<void>;
  /** Delivers one stored mail now, if nobody holds it; for the queue and tests. */
  deliver(id: string): Promise<"sent" | "skipped" | "failed">;
}

export function createDurableMailer(db: Database, transport: Mailer, onError: (error: unknown) => void) {
  const inFlight = new Set<Promise<unknown>>();
  let queue: Queue | null = null;

  const retryLater = async (id: string, attempts: number) => {
    if (!queue || attempts >= MAX_ATTEMPTS) return;
    await queue.send(MAIL_QUEUE, { id }, { startAfter: retryDelaySeconds(attempts), retryLimit: 3 });
  };

  async function deliver(id: string): Promise<"sent" | "skipped" | "failed"> {
    const now = new Date();
    const [row] = await db
      .update(outgoingMails)
      .set({
        leaseUntil: new Date(now.getTime() + LEASE_MS),
        attempts: sql`${outgoingMails.attempts} + 1`,
      })
      .where(
        and(
          eq(outgoingMails.id, id),
          isNull(outgoingMails.sentAt),
          or(isNull(outgoingMails.leaseUntil), lt(outgoingMails.leaseUntil, now)),
        ),
      )
      .returning();
    if (!row) return "skipped"; // delivered, or another delivery holds it
    try {
      await transport.send(row.mail);
    } catch (error) {
      await db
        .update(outgoingMails)
        .set({ leaseUntil: null, lastError: error instanceof Error ? error.message : String(error) })
        .where(eq(outgoingMails.id, id));
      await retryLater(id, row.attempts);
      return "failed";
    }
    // Delivered: the row keeps who it went to and its subject, not its content — sign-in and reset links,
    // invitations, attached screenshots have no reason to outlive their delivery in the database.
    await db
      .update(outgoingMails)
      .set({
        sentAt: new Date(),
        leaseUntil: null,
        lastError: null,
        mail: { to: row.mail.to, subject: row.mail.subject, text: "" },
      })
      .where(eq(outgoingMails.id, id));
    return "sent";
  }

  const track = (work: Promise<unknown>) => {
    const tracked = work.catch(onError).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  const mailer: DurableMailer = {
    kind: transport.kind,
    async send(input: MailInput) {
      const mail = await input;
      const id = newId();
      await db.insert(outgoingMails).values({ id, mail });
      track(deliver(id));
    },
    async start(jobs) {
      queue = jobs;
      await jobs.createQueue(MAIL_QUEUE);
      await jobs.work<{ id: string }>(MAIL_QUEUE, async (batch) => {
        for (const job of batch) await deliver(job.data.id);
      });
      const waiting = await db
        .select({ id: outgoingMails.id, attempts: outgoingMails.attempts })
        .from(outgoingMails)
        .where(
          and(
            isNull(outgoingMails.sentAt),
            gt(outgoingMails.createdAt, new Date(Date.now() - CATCH_UP_MS)),
            lt(outgoingMails.attempts, MAX_ATTEMPTS),
          ),
        );
      for (const { id } of waiting) track(deliver(id));
    },
    async stop(timeoutMs = 5000) {
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
      ]);
    },
    deliver,
  };
  return mailer;
}
