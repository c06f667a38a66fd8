/**
 * How a notification is made. A module's domain event makes one through the rule its module registers
 * (notifications.rules.ts: `notifies` says what it tells, `recipientRule` who is told); a module whose
 * writes do not record domain events yet calls `notify(tx, event)` inside the write's transaction. Either
 * way the event is in the ledger (lib/ledger.ts) exactly when the write committed. The `notifications`
 * consumer (notifications.consumer.ts) reads it after its durable cursor and, in one transaction with the
 * cursor's advance, decides who hears of it (SPEC §3 types), writes one row per recipient and publishes
 * each to its recipient's `user:{id}` room — exactly once, even when a process dies between the write
 * and the delivery.
 *
 * Never notified: the actor, guests of the public link (they have no account), deleted users.
 */
import { type CommentAuthor, type NotificationType, parseGuestIdentity } from "@redline/shared";
import { and, desc, eq, gt, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import {
  comments,
  type NewNotificationRow,
  type NotificationRow,
  notifications,
  pages,
  projectCollaborators,
  projectMembers,
  projects,
  teamMembers,
  teams,
  users,
} from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";
import { record } from "../../lib/ledger.ts";
import { announceNotifications } from "./notifications.announce.ts";
import { presentNotifications } from "./notifications.presenter.ts";
import { type People, type Recipient, recipientRuleOf } from "./notifications.rules.ts";
import { isTeamEvent, notifyTeam, type TeamNotificationEvent } from "./notify-teams.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** A signed-in user, a guest of the public link by their identity, or a widget's guest reporter by name. */
type Actor =
  | { userId: string; guestIdentity?: undefined; guestName?: undefined }
  | { userId?: undefined; guestIdentity: string; guestName?: undefined }
  | { userId?: undefined; guestIdentity?: undefined; guestName: string };

interface CommentRef {
  id: string;
  projectId: string;
  /** Null on a slide's comment (an illustration project's, `slideId`). */
  pageId: string | null;
  versionId: string | null;
  slideId?: string | null;
}

export type NotificationEvent =
  /** A new comment: its project's people, mentioned ones told they were mentioned. */
  | { on: "comment.created"; actor: Actor; comment: CommentRef; text: string }
  /** A reply: the people earlier in the thread, mentioned ones told they were mentioned. */
  | { on: "comment.replied"; actor: Actor; comment: CommentRef; text: string }
  /** A comment resolved: its author. */
  | { on: "comment.resolved"; actor: Actor; comment: CommentRef }
  /** A save of suggested edits: the project's editors only (SPEC §6). */
  | {
      on: "inspect.saved";
      actor: Actor;
      version: { id: string; projectId: string; pageId: string };
      editsCount: number;
    }
  /** A person added to a project. */
  | { on: "member.added"; actor: Actor; projectId: string; userId: string }
  /** A page added (its first version): the project's people. */
  | { on: "page.added"; actor: Actor; version: { id: string; projectId: string; pageId: string } }
  /** A page approved or its approval taken back: the project's people. */
  | {
      on: "page.approval";
      actor: Actor;
      version: { id: string | null; projectId: string; pageId: string };
      approved: boolean;
    }
  /** Someone made an approver of the project: that person. */
  | { on: "approver.made"; actor: Actor; projectId: string; userId: string }
  /** A ticket created on a bug-tracking board (or reported through its widget): the project's people. */
  | {
      on: "ticket.created";
      actor: Actor;
      ticket: { id: string; projectId: string };
      /** A widget report kept past the board's ticket limit: the limit. */
      pastLimit?: number;
    }
  /** A reply on a ticket's thread: the people it mentions. */
  | { on: "ticket.replied"; actor: Actor; ticket: { id: string; projectId: string }; text: string }
  /** A visitor asked for a review on /request-review (modules/review-requests): the project's owner. */
  | { on: "review.requested"; actor: Actor; projectId: string; url: string; email: string }
  /** A team's people: added, access changed, left (notify-teams.ts). */
  | TeamNotificationEvent;

/** The ledger's type for a notification event: its `on`, under this prefix. */
export const NOTIFY_EVENT_PREFIX = "notify:";

/** Records the event for the notifications consumer, inside the event's own transaction. */
export function notify(tx: Pick<Tx, "execute">, event: NotificationEvent): Promise<void> {
  return record(tx, { type: `${NOTIFY_EVENT_PREFIX}${event.on}`, event });
}

/** Who hears of the event, and their notifications written and published: the consumer's work. */
export async function deliverNotification(
  tx: Tx,
  event: NotificationEvent,
  /** When the event happened (its write), so notifications of one batch keep their events' order. */
  at: Date = new Date(),
): Promise<void> {
  if (isTeamEvent(event)) return notifyTeam(tx, event, at);
  const projectId =
    event.on === "member.added" || event.on === "approver.made" || event.on === "review.requested"
      ? event.projectId
      : projectOf(event);
  const people = await projectPeople(tx, projectId);
  // The module that owns the event says who is told; the project's own events are told here.
  const rule = recipientRuleOf(event.on);
  const recipients = (rule ? await rule(tx, event, people) : recipientsOf(event, people)).filter(
    (recipient) => recipient.userId !== event.actor.userId,
  );
  const live = await liveUsers(
    tx,
    recipients.map((recipient) => recipient.userId),
  );
  const chosen = recipients.filter((recipient) => live.has(recipient.userId));
  if (chosen.length === 0) return;
  // A comment deleted since its event was recorded (posted and taken back at once) leaves no one anything
  // to open: its notifications are not made (they would point at a row that is gone).
  if ("comment" in event) {
    // KEY SHARE, as the foreign key's own check takes: a delete running now waits for this transaction
    // (and then removes these notifications with the comment) instead of failing the insert below.
    const [still] = await tx
      .select({ id: comments.id })
      .from(comments)
      .where(eq(comments.id, event.comment.id))
      .for("key share");
    if (!still) return;
  }

  const [project] = await tx
    .select({ title: projects.title })
    .from(projects)
    .where(eq(projects.id, projectId));
  const place = "comment" in event ? event.comment : "version" in event ? event.version : null;
  const [page] = place?.pageId
    ? await tx.select({ title: pages.title }).from(pages).where(eq(pages.id, place.pageId!))
    : [];
  const guest = event.actor.guestName
    ? { name: event.actor.guestName, avatar: null }
    : parseGuestIdentity(event.actor.guestIdentity);
  const now = at;
  const rows: NewNotificationRow[] = chosen.map((recipient) => ({
    id: newId(),
    userId: recipient.userId,
    type: recipient.type,
    projectId,
    pageId: place?.pageId ?? null,
    versionId: "comment" in event ? event.comment.versionId : "version" in event ? event.version.id : null,
    commentId: "comment" in event ? event.comment.id : null,
    actorId: event.actor.userId ?? null,
    context: {
      projectTitle: project?.title ?? "",
      ...(page && { pageTitle: page.title }),
      ...(event.on === "inspect.saved" && { editsCount: event.editsCount }),
      ...("ticket" in event && { ticketId: event.ticket.id }),
      ...(event.on === "ticket.created" && event.pastLimit !== undefined && { ticketLimit: event.pastLimit }),
      ...(guest && { userName: guest.name, photoURL: guest.avatar ?? null }),
      ...(event.on === "review.requested" && { reviewUrl: event.url, email: event.email }),
    },
    createdAt: now,
  }));
  const inserted = await insertOrGroup(tx, rows);
  const presented = await presentNotifications(tx, inserted, await actorOf(tx, event.actor.userId));
  const rowOf = new Map(inserted.map((row) => [row.id, row]));
  await announceNotifications(
    tx,
    presented.map((notification) => ({ row: rowOf.get(notification.id)!, notification })),
  );
}

/** Repeated events of these types fold into one notification (SPEC §3 length); a mention never does. */
const GROUPED_TYPES: ReadonlySet<NotificationType> = new Set([
  "web-comment",
  "false-comment",
  "web-comment-reply",
  "web-comment-resolve",
  "web-inspect",
  "page-approved",
  "page-unapproved",
]);
/**
 * Types that fold into each other: one state toggled back and forth. The group takes the newest event's
 * type, so ten approve/unapprove changes by one person read as where they ended ('approved page').
 */
const GROUP_FAMILY: Partial<Record<NotificationType, string>> = {
  "page-approved": "page-approval",
  "page-unapproved": "page-approval",
};
const familyOf = (type: NotificationType) => GROUP_FAMILY[type] ?? type;
const typesOfFamily = (type: NotificationType) =>
  [...GROUPED_TYPES].filter((candidate) => familyOf(candidate) === familyOf(type));
/** How long an unseen notification keeps gathering repeats of its event. */
export const GROUP_WINDOW_MS = 60 * 60 * 1000;

/**
 * Writes the rows, folding each groupable one into its recipient's unseen notification of the same type
 * (or family: approved and unapproved are one) on the same page by the same person within the window: its
 * `length` counts the events, the edits are summed ('suggested 5 edits on page'), it takes the newest
 * event's type, points at the newest comment or version, moves to the top, is
 * news for the bell again and owes a mail again (the mail batch tells the new count). The group's key is
 * locked for the transaction, so events at once all count, in one row.
 */
async function insertOrGroup(tx: Tx, rows: NewNotificationRow[]): Promise<NotificationRow[]> {
  const groupable = rows.filter((row) => GROUPED_TYPES.has(row.type) && row.pageId);
  const groups = await openGroups(tx, groupable);
  const fresh = rows.filter((row) => !groups.has(row));
  const folds = [...groups].map(([row, group]) => {
    const editsCount =
      row.type === "web-inspect"
        ? (group.context.editsCount ?? 1) + (row.context.editsCount ?? 1)
        : group.context.editsCount;
    return {
      id: group.id,
      type: row.type,
      context: { ...row.context, ...(editsCount !== undefined && { editsCount }) },
      version_id: row.versionId ?? null,
      comment_id: row.commentId ?? null,
      created_at: (row.createdAt ?? new Date()).toISOString(),
    };
  });
  const written: NotificationRow[] = [];
  if (folds.length > 0) {
    // One statement for every recipient's group: each takes its newest event (see above).
    await tx.execute(sql`
      update ${notifications} as n
         set length = n.length + 1,
             type = fold.type,
             context = fold.context,
             version_id = fold.version_id,
             comment_id = fold.comment_id,
             created_at = fold.created_at,
             is_notified = false,
             email_sent = false
        from jsonb_to_recordset(${JSON.stringify(folds)}::jsonb)
             as fold(id text, type text, context jsonb, version_id text, comment_id text, created_at timestamptz)
       where n.id = fold.id`);
    const ids = folds.map((fold) => fold.id);
    written.push(...(await tx.select().from(notifications).where(inArray(notifications.id, ids))));
  }
  if (fresh.length > 0) written.push(...(await tx.insert(notifications).values(fresh).returning()));
  return written;
}

const groupKey = (row: NewNotificationRow) =>
  [row.userId, familyOf(row.type), row.pageId, row.actorId ?? `guest:${row.context.userName ?? ""}`].join(
    "|",
  );

/**
 * Each groupable row's recipient's open group, if any. Two events at once with no group yet would each
 * start one: the first to lock a key starts it, the other finds it (the lock holds until the transaction
 * ends). The keys are locked in one order, so two events at once never wait on each other crosswise.
 */
async function openGroups(
  tx: Tx,
  rows: NewNotificationRow[],
): Promise<Map<NewNotificationRow, NotificationRow>> {
  const found = new Map<NewNotificationRow, NotificationRow>();
  if (rows.length === 0) return found;
  const keys = [...new Set(rows.map(groupKey))].sort();
  await tx.execute(sql`
    select pg_advisory_xact_lock(hashtextextended(key, 0))
      from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) with ordinality as locked(key, position)
     order by position`);
  // The rows of one event share their page and actor; they differ by recipient and type family.
  const families = new Map<string, NewNotificationRow[]>();
  for (const row of rows)
    families.set(familyOf(row.type), [...(families.get(familyOf(row.type)) ?? []), row]);
  for (const ofFamily of families.values()) {
    const row = ofFamily[0]!;
    const since = new Date((row.createdAt ?? new Date()).getTime() - GROUP_WINDOW_MS);
    const candidates = await tx
      .select()
      .from(notifications)
      .where(
        and(
          inArray(notifications.userId, [...new Set(ofFamily.map((each) => each.userId))]),
          inArray(notifications.type, typesOfFamily(row.type)),
          eq(notifications.pageId, row.pageId!),
          eq(notifications.isSeen, false),
          gt(notifications.createdAt, since),
          row.actorId
            ? eq(notifications.actorId, row.actorId)
            : and(
                isNull(notifications.actorId),
                sql`${notifications.context}->>'userName' is not distinct from ${row.context.userName ?? null}`,
              ),
        ),
      )
      .orderBy(desc(notifications.createdAt))
      .for("update");
    for (const each of ofFamily) {
      // Newest first: a recipient's newest open group takes the event.
      const group = candidates.find((candidate) => candidate.userId === each.userId);
      if (group) found.set(each, group);
    }
  }
  return found;
}

function projectOf(
  event: Exclude<
    NotificationEvent,
    { on: "member.added" } | { on: "approver.made" } | { on: "review.requested" } | TeamNotificationEvent
  >,
): string {
  if ("ticket" in event) return event.ticket.projectId;
  return "comment" in event ? event.comment.projectId : event.version.projectId;
}

/**
 * The project's people with an account: its owner, the members who are not pending invitations and, for
 * a team project, its team (owner, managers and members edit; switched-in collaborators comment), the
 * highest access winning as in the project policy.
 */
async function projectPeople(tx: Tx, projectId: string): Promise<People> {
  const [project] = await tx
    .select({ ownerId: projects.ownerId, teamId: projects.teamId })
    .from(projects)
    .where(eq(projects.id, projectId));
  const members = await tx
    .select({ userId: projectMembers.userId, access: projectMembers.access })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), isNotNull(projectMembers.userId)));
  const people: People = new Map(members.map((member) => [member.userId!, member.access]));
  if (project?.teamId) {
    const team = await tx
      .select({
        userId: teamMembers.userId,
        access: teamMembers.access,
        toggledIn: projectCollaborators.userId,
      })
      .from(teamMembers)
      .leftJoin(
        projectCollaborators,
        and(
          eq(projectCollaborators.projectId, projectId),
          eq(projectCollaborators.userId, teamMembers.userId),
        ),
      )
      .where(and(eq(teamMembers.teamId, project.teamId), isNotNull(teamMembers.userId)));
    const [teamOwner] = await tx
      .select({ ownerId: teams.ownerId })
      .from(teams)
      .where(eq(teams.id, project.teamId));
    const rows = [
      ...team,
      ...(teamOwner ? [{ userId: teamOwner.ownerId, access: "owner", toggledIn: null }] : []),
    ];
    const rank = { view: 0, comment: 1, edit: 2, owner: 3 } as const;
    for (const { userId, access, toggledIn } of rows) {
      const role = access === "collaborator" ? (toggledIn ? "comment" : null) : "edit";
      const held = userId ? people.get(userId) : undefined;
      if (userId && role && (!held || rank[role] > rank[held])) people.set(userId, role);
    }
  }
  if (project) people.set(project.ownerId, "owner");
  return people;
}

/** The project's own events: a review asked for (members.events.ts and pages.events.ts say who hears of theirs). */
function recipientsOf(event: NotificationEvent, people: People): Recipient[] {
  switch (event.on) {
    case "review.requested":
      return [...people]
        .filter(([, access]) => access === "owner")
        .map(([userId]) => ({ userId, type: "review-request" }));
    default:
      // A module's event whose rule was not loaded (modules/events.ts): logged by the consumer, not guessed.
      throw new Error(`No recipient rule for notification event ${event.on}`);
  }
}

/** The actor as the notification shows them: they just acted in the project, so they are among its people. */
async function actorOf(tx: Tx, userId: string | undefined): Promise<Map<string, CommentAuthor>> {
  if (!userId) return new Map();
  const [row] = await tx
    .select({ displayName: users.displayName, photoURL: users.photoURL })
    .from(users)
    .where(eq(users.id, userId));
  return new Map(row ? [[userId, { uid: userId, ...row, isGuest: false }]] : []);
}

async function liveUsers(tx: Tx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [...new Set(ids)]), eq(users.isDeleted, false)));
  return new Set(rows.map((row) => row.id));
}
