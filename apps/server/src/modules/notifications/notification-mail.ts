/**
 * E-mail notifications (SPEC §1, §3 emailSent, issue #16): a notification also arrives by e-mail when the
 * recipient's e-mail preference for its kind is on (`emailPreferenceOf`), or always for a kind no
 * preference covers that has no mail of its own — an added page (SPEC §9's template) and a new ticket on a
 * board (ADR 0017) — batched, so a burst of events for one person on one project becomes one message.
 *
 * A batch is keyed by (recipient, project, kind): one preference per message, so its one-click
 * unsubscribe turns exactly that kind off (an added-pages or new-tickets mail has no preference, so no
 * unsubscribe). The mail consumer reads each `notification.created` event of the ledger (also for a grouped
 * row that owes a mail again) and asks the durable queue for the key's job, starting a window later. The queue's `short` policy keeps at most one such job
 * waiting per key, so the other events of the window add nothing; once the job runs, the next event
 * starts a new batch. The job claims every unclaimed row of its key (`email_sent` false → true, so two
 * processes never mail a row twice), re-checks the preference and the recipient (an account, still one of
 * the project's people), and hands one mail to the durable outbox; if that fails the claim is given back
 * and the job is retried.
 */
import {
  EMAIL_PREFERENCE_LABELS,
  type EmailPreferenceKey,
  emailPreferenceOf,
  NOTIFICATION_TYPES,
  type NotificationType,
  notificationMessage,
  notificationTarget,
} from "@redline/shared";
import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/index.ts";
import { type NotificationRow, notifications, tickets, type UserRow, users } from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import type { Mail } from "../../lib/mail/mailer.ts";
import { notificationMail, pagesAddedMail, ticketsAddedMail } from "../../lib/mail/templates.ts";
import { mintUnsubscribeToken } from "../../lib/mail/unsubscribe-token.ts";
import { inTransaction, type Queue } from "../../lib/queue.ts";
import { loadProject } from "../project-access/projects.load.ts";
import type { NotificationCreated } from "./notifications.announce.ts";
import { presentNotifications } from "./notifications.presenter.ts";

type Executor = Pick<Database, "execute">;

/** A new name for the batched jobs: a queue's policy is fixed when it is created. */
export const NOTIFICATION_MAIL_QUEUE = "notification-mail-batch";

/** Rows older than this are not mailed any more (old news). */
const CATCH_UP_MS = 24 * 60 * 60 * 1000;

/**
 * What one message is about: the notification kinds of one e-mail preference, or a kind no preference
 * covers and so always mailed (ADR 0017) — `pagesAdded` (pages added to a project) and `ticketsAdded`
 * (tickets created on a project's board). The other kinds with no preference each have their own mail
 * already (an invitation, an approver's mail) or none yet (teams), and are not mailed as notifications.
 */
export type MailKind = EmailPreferenceKey | AlwaysMailed;
type AlwaysMailed = "pagesAdded" | "ticketsAdded";

const ALWAYS_MAILED: Partial<Record<NotificationType, AlwaysMailed>> = {
  "web-page-add": "pagesAdded",
  "browse-ticket-add": "ticketsAdded",
};

export function mailKindOf(type: NotificationType): MailKind | null {
  return emailPreferenceOf(type) ?? ALWAYS_MAILED[type] ?? null;
}

const preferenceOf = (kind: MailKind): EmailPreferenceKey | null =>
  kind === "pagesAdded" || kind === "ticketsAdded" ? null : kind;

export interface MailBatchKey {
  userId: string;
  /** Null never reaches a mail today (team notifications have no e-mail preference). */
  projectId: string | null;
  /** The batch's kind (named `preference` when every kind was one; a job's data keeps the name). */
  preference: MailKind;
}

export async function createNotificationMailQueue(queue: Queue): Promise<void> {
  // `short`: at most one job per singleton key in the created (waiting) state.
  await queue.createQueue(NOTIFICATION_MAIL_QUEUE, { name: NOTIFICATION_MAIL_QUEUE, policy: "short" });
}

/** Starts the key's batch unless one is already waiting; returns whether this call started it. */
export async function enqueueMailBatch(
  ctx: Pick<AppContext, "queue">,
  key: MailBatchKey,
  delayMs: number,
  tx?: Executor,
): Promise<boolean> {
  const id = await ctx.queue.send(NOTIFICATION_MAIL_QUEUE, key, {
    ...(tx && { db: inTransaction(tx) }),
    singletonKey: `${key.userId}:${key.projectId ?? ""}:${key.preference}`,
    startAfter: new Date(Date.now() + delayMs),
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  });
  return id !== null;
}

/**
 * On a `notification.created` event, inside the mail consumer's transaction: the notification's batch, if
 * its kind is mailed at all.
 */
async function enqueueNotificationMail(
  ctx: AppContext,
  tx: Executor & Pick<Database, "select">,
  notificationId: string,
): Promise<void> {
  const [row] = await tx
    .select({
      userId: notifications.userId,
      projectId: notifications.projectId,
      type: notifications.type,
      emailSent: notifications.emailSent,
    })
    .from(notifications)
    .where(eq(notifications.id, notificationId));
  const preference = row && !row.emailSent ? mailKindOf(row.type) : null;
  if (!row || !preference) return;
  await enqueueMailBatch(
    ctx,
    { userId: row.userId, projectId: row.projectId, preference },
    ctx.config.mailBatchWindowMs,
    tx,
  );
}

/**
 * Works the queue in this process, and follows the ledger's `notification.created` events after the
 * mail consumer's durable cursor: each asks for its key's batch. A process that dies before asking leaves
 * the cursor behind, so the next one asks; asking twice starts one batch (the `short` policy) and a row is
 * mailed once (its claim).
 */
export async function startNotificationMailer(ctx: AppContext): Promise<void> {
  await ctx.queue.work<MailBatchKey>(NOTIFICATION_MAIL_QUEUE, async (jobs) => {
    for (const job of jobs) await mailBatch(ctx, job.data);
  });
  await ctx.ledger.consume<NotificationCreated>({
    name: "notification-mail",
    accepts: (event): event is NotificationCreated => event.type === "notification.created",
    handle: async (tx, event, recorded) => {
      if (Date.now() - recorded.createdAt.getTime() > CATCH_UP_MS) return;
      await enqueueNotificationMail(ctx, tx, event.notificationId);
    },
  });
}

const typesOf = (kind: MailKind) => NOTIFICATION_TYPES.filter((type) => mailKindOf(type) === kind);

/** Mails the key's unclaimed notifications as one message, each at most once. */
export async function mailBatch(ctx: AppContext, key: MailBatchKey): Promise<"sent" | "skipped"> {
  const { db } = ctx.database;
  const types = typesOf(key.preference);
  if (types.length === 0) return "skipped";
  const rows = await db
    .update(notifications)
    .set({ emailSent: true })
    .where(
      and(
        eq(notifications.userId, key.userId),
        key.projectId ? eq(notifications.projectId, key.projectId) : isNull(notifications.projectId),
        inArray(notifications.type, types),
        eq(notifications.emailSent, false),
        gt(notifications.createdAt, new Date(Date.now() - CATCH_UP_MS)),
      ),
    )
    .returning();
  if (rows.length === 0) return "skipped"; // mailed by an earlier batch, or by another process
  try {
    const [recipient] = await db.select().from(users).where(eq(users.id, key.userId));
    const preference = preferenceOf(key.preference);
    // Turned off, gone, or out of the project since: the rows stay claimed, so they are never mailed
    // later either. Leaving a project drops its notifications, but not every way out does (a team's
    // person leaving its team), and a batch may already hold the rows.
    if (
      !recipient ||
      recipient.isDeleted ||
      (preference && recipient.emailPreferences[preference] === false) ||
      (key.projectId && !(await isProjectPerson(ctx, recipient, key.projectId)))
    )
      return "skipped";
    rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()); // newest first, like the panel
    const mail = await mailOf(ctx, key, recipient.email, rows);
    if (!mail) return "skipped"; // nothing left to tell of (every ticket deleted since)
    await ctx.mailer.send(mail);
  } catch (error) {
    // Not known to be mailed (a failed read, or the hand-over): the claims go back for the retry.
    await db
      .update(notifications)
      .set({ emailSent: false })
      .where(
        inArray(
          notifications.id,
          rows.map((row) => row.id),
        ),
      );
    throw error;
  }
  return "sent";
}

/** The same load and policy as the project's HTTP read: any access, expiry aside. */
async function isProjectPerson(ctx: AppContext, user: UserRow, projectId: string): Promise<boolean> {
  try {
    const loaded = await loadProject(ctx.database.db, { user }, projectId);
    return loaded.heldAccess !== null;
  } catch (error) {
    if (error instanceof NotFoundError) return false; // the project was deleted
    throw error;
  }
}

/** The batch's one message, in the template of its kind; null when none of its items is left. */
async function mailOf(
  ctx: AppContext,
  key: MailBatchKey,
  to: string,
  rows: NotificationRow[],
): Promise<Mail | null> {
  const { db } = ctx.database;
  const presented = await presentNotifications(db, rows);
  const { appUrl } = ctx.config;
  const preference = preferenceOf(key.preference);
  const projectTitle = rows[0]!.context.projectTitle;
  const projectUrl = `${appUrl}/project/${key.projectId ?? ""}`;
  if (key.preference === "ticketsAdded") {
    // The notification keeps the ticket's id only: its title is read now (a renamed ticket reads as it is).
    const ids = presented.flatMap((notification) => notification.context.ticketId ?? []);
    const titles = new Map(
      ids.length === 0
        ? []
        : (
            await db
              .select({ id: tickets.id, title: tickets.title })
              .from(tickets)
              .where(inArray(tickets.id, ids))
          ).map((ticket) => [ticket.id, ticket.title]),
    );
    const items = presented.flatMap((notification) => {
      const title = titles.get(notification.context.ticketId ?? "");
      return title === undefined
        ? []
        : [
            {
              actor: notification.actor.displayName,
              ticketTitle: title,
              // `/project/{id}?t={ticketId}`: the board with that ticket open (SPEC §1 routes).
              url: `${appUrl}${notificationTarget(notification)}`,
            },
          ];
    });
    if (items.length === 0) return null;
    return ticketsAddedMail({ to, projectTitle, items, projectUrl, settingsUrl: `${appUrl}/profile` });
  }
  return preference
    ? notificationMail({
        to,
        projectTitle,
        // Each row as it reads now: a grouped row's `length` counts its events ('left 5 comments on page').
        items: presented.map((notification) => ({
          actor: notification.actor.displayName,
          message: notificationMessage(notification),
          about: notification.context.pageTitle ?? notification.context.projectTitle,
          url: `${appUrl}${notificationTarget(notification)}`,
        })),
        settingsUrl: `${appUrl}/profile`,
        unsubscribe: unsubscribeLinks(
          appUrl,
          mintUnsubscribeToken(ctx.config.authSecret, key.userId, preference),
          preference,
        ),
      })
    : pagesAddedMail({
        to,
        projectTitle,
        items: presented.map((notification) => ({
          actor: notification.actor.displayName,
          pageTitle: notification.context.pageTitle ?? notification.context.projectTitle,
          url: `${appUrl}${notificationTarget(notification)}`,
        })),
        projectUrl,
        settingsUrl: `${appUrl}/profile`,
      });
}

/** A preference's one-click unsubscribe (RFC 8058): the page a person opens and the URL a client POSTs. */
function unsubscribeLinks(appUrl: string, token: string, preference: EmailPreferenceKey) {
  const query = `token=${encodeURIComponent(token)}`;
  return {
    pageUrl: `${appUrl}/unsubscribe?${query}`,
    oneClickUrl: `${appUrl}/api/mail/unsubscribe?${query}`,
    label: EMAIL_PREFERENCE_LABELS[preference],
  };
}
