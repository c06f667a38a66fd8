/**
 * E-mail notifications (SPEC §1, §3 emailSent): a notification also arrives by e-mail when the
 * recipient's e-mail preference for its kind is on (`emailPreferenceOf`).
 *
 * Out of the request, on the durable queue: every process hears each `notifications.created` event
 * on commit (the realtime fan-out) and enqueues a job for it, deduplicated by a singleton key; the job
 * claims the row (`email_sent` false → true, so two processes never mail it twice), checks the
 * preference and sends. A failed send gives the claim back and the job is retried. Rows still unclaimed
 * at start-up (no process was listening at commit) are enqueued again.
 */
import {
  EMAIL_PREFERENCE_LABELS,
  emailPreferenceOf,
  notificationMessage,
  notificationTarget,
} from "@redline/shared";
import { and, eq, gt } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { notifications, users } from "../../db/schema/index.ts";
import { notificationMail } from "../../lib/mail/templates.ts";
import { mintUnsubscribeToken } from "../../lib/mail/unsubscribe-token.ts";
import type { Queue } from "../../lib/queue.ts";
import { presentNotifications } from "./notifications.presenter.ts";

export const NOTIFICATION_MAIL_QUEUE = "notification-mail";

/** Rows older than this are not mailed at start-up any more (old news). */
const CATCH_UP_MS = 24 * 60 * 60 * 1000;

export async function createNotificationMailQueue(queue: Queue): Promise<void> {
  await queue.createQueue(NOTIFICATION_MAIL_QUEUE);
}

export async function enqueueNotificationMail(queue: Queue, notificationId: string): Promise<void> {
  await queue.send(
    NOTIFICATION_MAIL_QUEUE,
    { notificationId },
    { singletonKey: notificationId, retryLimit: 3, retryDelay: 30, expireInSeconds: 60 },
  );
}

/** Works the queue in this process; first enqueues what no process took at commit. */
export async function startNotificationMailer(ctx: AppContext): Promise<void> {
  await ctx.queue.work<{ notificationId: string }>(NOTIFICATION_MAIL_QUEUE, async (jobs) => {
    for (const job of jobs) await mailNotification(ctx, job.data.notificationId);
  });
  const unclaimed = await ctx.database.db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.emailSent, false),
        gt(notifications.createdAt, new Date(Date.now() - CATCH_UP_MS)),
      ),
    );
  for (const row of unclaimed) await enqueueNotificationMail(ctx.queue, row.id);
}

/** Mails one notification, at most once. */
export async function mailNotification(ctx: AppContext, notificationId: string): Promise<"sent" | "skipped"> {
  const { db } = ctx.database;
  const [row] = await db
    .update(notifications)
    .set({ emailSent: true })
    .where(and(eq(notifications.id, notificationId), eq(notifications.emailSent, false)))
    .returning();
  if (!row) return "skipped"; // gone, or another process has it
  const preference = emailPreferenceOf(row.type);
  const [recipient] = await db
    .select({ email: users.email, isDeleted: users.isDeleted, emailPreferences: users.emailPreferences })
    .from(users)
    .where(eq(users.id, row.userId));
  if (!preference || !recipient || recipient.isDeleted || recipient.emailPreferences[preference] === false)
    return "skipped";
  const [notification] = await presentNotifications(db, [row]);
  const token = encodeURIComponent(mintUnsubscribeToken(ctx.config.authSecret, row.userId, preference));
  try {
    await ctx.mailer.send(
      notificationMail({
        to: recipient.email,
        actor: notification!.actor.displayName,
        message: notificationMessage(row),
        about: row.context.pageTitle ?? row.context.projectTitle,
        projectTitle: row.context.projectTitle,
        url: `${ctx.config.appUrl}${notificationTarget(row)}`,
        settingsUrl: `${ctx.config.appUrl}/profile`,
        unsubscribe: {
          pageUrl: `${ctx.config.appUrl}/unsubscribe?token=${token}`,
          oneClickUrl: `${ctx.config.appUrl}/api/mail/unsubscribe?token=${token}`,
          label: EMAIL_PREFERENCE_LABELS[preference],
        },
      }),
    );
  } catch (error) {
    await db.update(notifications).set({ emailSent: false }).where(eq(notifications.id, notificationId));
    throw error;
  }
  return "sent";
}
