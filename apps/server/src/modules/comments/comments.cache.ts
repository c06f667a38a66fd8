/**
 * A version's comments as each member reads them, kept in process memory (ADR 0013): the list presented
 * once, and the JSON answer per reader (reader id + access: the abilities inside it are theirs), so a
 * repeated read costs the version's access query and nothing else.
 *
 * Correctness comes from the realtime announcements every process already hears (lib/realtime.ts). Every
 * write that changes a version's comments publishes to its project's room inside its transaction; so do
 * removals from a project (a revocation) and changes of someone's access to it (`projects.changed`,
 * carrying the project). Each announcement heard — from any process, committed — forgets the project's
 * versions before any socket is told, so a tab refetching on the event reads the change. Within this
 * process a write forgets its project as it publishes, and nothing of that project is kept until the
 * announcement comes back from the database (or 10 s pass: it rolled back), so a writer's next read, here,
 * reads the database. Authors' names and photos, and whether they are still among the project's people,
 * come from users: a change to a user (session-cache.ts hears them all, ADR 0007) forgets the versions they
 * wrote in. A read that raced a forgetting is answered but not kept; while either channel is lost nothing
 * is kept. Guests of a public link are never served from here.
 */
import type { Comment, RealtimeEvent } from "@redline/shared";
import { asc, eq, getTableColumns, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { prepared } from "../../db/prepared.ts";
import { comments } from "../../db/schema/index.ts";
import type { PolicyActor } from "../../lib/policy.ts";
import { observeRealtime, type Room } from "../../lib/realtime.ts";
import { type SessionCache, sessionCacheOf } from "../auth/session-cache.ts";
import { withCommentAbilities } from "./comments.policy.ts";
import { listComments, presentMany } from "./comments.service.ts";

/** Kept answers (bytes) and their lists (about as large) stay under this size; least recently read go first. */
const MAX_CHARS = 32 * 1024 * 1024;
/** A write of this process that is never heard back (rolled back) stops holding its project after this. */
const PENDING_MS = 10_000;
/** Forgetting marks kept per project and per author before everything is forgotten instead. */
const MAX_MARKS = 10_000;

interface VersionEntry {
  projectId: string;
  /** Every user who wrote an entry: a change to one of them changes how the list reads. */
  authors: Set<string>;
  list: Comment[];
  /** The JSON answer per reader (`readerKey`), encoded once. */
  answers: Map<string, Buffer>;
  chars: number;
}

export const readerKey = (reader: PolicyActor) => `${reader.userId ?? ""}\u0000${reader.access ?? ""}`;

/** The project an announcement is about: its room's, or the project a user-room event names. */
function projectOf(room: Room, event: RealtimeEvent | null): string | null {
  if (room.startsWith("project:")) return room.slice("project:".length);
  if (event && "projectId" in event && typeof event.projectId === "string") return event.projectId;
  return null;
}

export class CommentsCache {
  private readonly versions = new Map<string, VersionEntry>();
  private readonly byProject = new Map<string, Set<string>>();
  private chars = 0;
  /** Ticks on every forgetting; an answer computed from a read begun before one that concerns it is not kept. */
  private clock = 0;
  private clearedAt = 0;
  private readonly projectForgottenAt = new Map<string, number>();
  private readonly authorForgottenAt = new Map<string, number>();
  /** Announcements this process sent and has not heard back: id → project, until. */
  private readonly pending = new Map<string, { projectId: string; until: number }>();
  private listening = true;

  constructor(
    /** Whether user changes are heard (the session cache's channel): authors depend on them. */
    private readonly usersListening: () => boolean = () => true,
    private readonly maxChars = MAX_CHARS,
  ) {}

  /** Pass to `keep`: the moment a read began. */
  begin(): number {
    return this.clock;
  }

  /** What is kept for the version: the list, and this reader's answer if computed. */
  get(
    versionId: string,
    projectId: string,
    reader: string,
  ): { list: Comment[]; answer?: Buffer } | undefined {
    const entry = this.versions.get(versionId);
    if (!entry || entry.projectId !== projectId || this.isPending(projectId)) return undefined;
    this.versions.delete(versionId);
    this.versions.set(versionId, entry);
    return { list: entry.list, answer: entry.answers.get(reader) };
  }

  /** Keeps a list and a reader's answer read since `began`, unless something they depend on changed since. */
  keep(versionId: string, projectId: string, list: Comment[], reader: string, answer: Buffer, began: number) {
    if (!this.listening || !this.usersListening() || this.clearedAt > began) return;
    if ((this.projectForgottenAt.get(projectId) ?? 0) > began || this.isPending(projectId)) return;
    let entry = this.versions.get(versionId);
    if (!entry || entry.projectId !== projectId) {
      const authors = new Set<string>();
      for (const comment of list)
        for (const item of comment.thread) if (item.userId) authors.add(item.userId);
      for (const author of authors) if ((this.authorForgottenAt.get(author) ?? 0) > began) return;
      if (entry) this.drop(versionId);
      entry = { projectId, authors, list, answers: new Map(), chars: answer.length };
      this.versions.set(versionId, entry);
      const ids = this.byProject.get(projectId) ?? new Set<string>();
      ids.add(versionId);
      this.byProject.set(projectId, ids);
      this.chars += entry.chars;
    } else {
      for (const author of entry.authors) if ((this.authorForgottenAt.get(author) ?? 0) > began) return;
    }
    const previous = entry.answers.get(reader);
    if (previous !== undefined) this.chars -= previous.length;
    entry.answers.set(reader, answer);
    entry.chars += answer.length - (previous?.length ?? 0);
    this.chars += answer.length;
    for (const oldest of this.versions.keys()) {
      if (this.chars <= this.maxChars) break;
      this.drop(oldest);
    }
  }

  /** Something in the project changed (or is about to): its versions are read anew. */
  forgetProject(projectId: string): void {
    this.clock++;
    if (this.projectForgottenAt.size >= MAX_MARKS) {
      this.clear();
      return;
    }
    this.projectForgottenAt.set(projectId, this.clock);
    for (const versionId of [...(this.byProject.get(projectId) ?? [])]) this.drop(versionId);
  }

  /** A user changed (name, photo, account): every version they wrote in is read anew. */
  forgetAuthor(userId: string): void {
    this.clock++;
    if (this.authorForgottenAt.size >= MAX_MARKS) {
      this.clear();
      return;
    }
    this.authorForgottenAt.set(userId, this.clock);
    for (const [versionId, entry] of [...this.versions]) if (entry.authors.has(userId)) this.drop(versionId);
  }

  clear(): void {
    this.clock++;
    this.clearedAt = this.clock;
    this.projectForgottenAt.clear();
    this.authorForgottenAt.clear();
    this.versions.clear();
    this.byProject.clear();
    this.chars = 0;
  }

  /** This process announced a change (in a transaction still open). */
  sent(room: Room, event: RealtimeEvent | null, id: string, now = Date.now()): void {
    const projectId = projectOf(room, event);
    if (!projectId) return;
    this.pending.set(id, { projectId, until: now + PENDING_MS });
    this.forgetProject(projectId);
  }

  /** The database delivered an announcement (committed), from this process or another. */
  heard(room: Room, event: RealtimeEvent | null, id: string | undefined): void {
    if (id) this.pending.delete(id);
    const projectId = projectOf(room, event);
    if (projectId) this.forgetProject(projectId);
  }

  /** Announcements may be missed while the connection is lost: keep nothing until it listens again. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.clear();
  }

  get size(): number {
    return this.versions.size;
  }

  private isPending(projectId: string, now = Date.now()): boolean {
    let pending = false;
    for (const [id, write] of this.pending) {
      if (write.until <= now) this.pending.delete(id);
      else if (write.projectId === projectId) pending = true;
    }
    return pending;
  }

  private drop(versionId: string): void {
    const entry = this.versions.get(versionId);
    if (!entry) return;
    this.versions.delete(versionId);
    this.chars -= entry.chars;
    const ids = this.byProject.get(entry.projectId);
    ids?.delete(versionId);
    if (ids?.size === 0) this.byProject.delete(entry.projectId);
  }
}

const caches = new WeakMap<Database, CommentsCache>();

/**
 * Starts this process's cache for a database: hears its realtime announcements and the session cache's
 * user changes. Without a session cache (nothing tells of user changes) nothing is kept.
 */
export function startCommentsCache(db: Database): { cache: CommentsCache; stop: () => void } {
  const sessions: SessionCache | undefined = sessionCacheOf(db);
  const cache = new CommentsCache(() => sessions?.isListening ?? false);
  const stopRealtime = observeRealtime(db, {
    sent: (room, event, id) => cache.sent(room, event, id),
    heard: (room, event, id) => cache.heard(room, event, id),
    gap: (state) => cache.setListening(state === "listening"),
  });
  const stopUsers = sessions?.observe((userId) => (userId ? cache.forgetAuthor(userId) : cache.clear()));
  caches.set(db, cache);
  return {
    cache,
    stop: () => {
      stopRealtime();
      stopUsers?.();
      caches.delete(db);
    },
  };
}

export function commentsCacheOf(db: Database): CommentsCache | undefined {
  return caches.get(db);
}

/** The JSON answer to a member's read of a version's comments (`{ data }`), from the cache when kept. */
export async function readComments(
  db: Database,
  version: { id: string; projectId: string },
  reader: PolicyActor,
): Promise<Buffer> {
  const cache = caches.get(db);
  const key = readerKey(reader);
  const began = cache?.begin() ?? 0;
  const kept = cache?.get(version.id, version.projectId, key);
  if (kept?.answer !== undefined) return kept.answer;
  const list = kept?.list ?? (await listComments(db, version.id));
  const answer = Buffer.from(
    JSON.stringify({ data: list.map((comment) => withCommentAbilities(reader, comment)) }),
  );
  cache?.keep(version.id, version.projectId, list, key, answer, began);
  return answer;
}

/** The most comments a first page (`?first=`) may ask for. */
export const MAX_FIRST_COMMENTS = 200;

/**
 * GET /api/versions/:versionId/comments's query: `first` asks for the first comments only, in creation
 * order, with `total` (the version's number of comments) — what a review page shows at once while the
 * whole list, which may be megabytes, is still coming. Other parameters are ignored, as before.
 */
export const commentsListQuery = z.object({
  first: z.coerce.number().int().min(1).max(MAX_FIRST_COMMENTS).optional(),
});

/**
 * The first `first` comments of a version as this reader reads them, and how many it has: sliced from the
 * kept list when there is one, else one LIMITed query scoped by the version (prepared) and the page's
 * threads and authors. Never kept: the whole list is what the cache holds.
 */
export async function readFirstComments(
  db: Database,
  version: { id: string; projectId: string },
  reader: PolicyActor,
  first: number,
): Promise<{ data: Comment[]; total: number }> {
  const kept = caches.get(db)?.get(version.id, version.projectId, readerKey(reader));
  if (kept) {
    const data = kept.list.slice(0, first).map((comment) => withCommentAbilities(reader, comment));
    return { data, total: kept.list.length };
  }
  const rows = await prepared(db, "version_first_comments", () =>
    db
      .select({ ...getTableColumns(comments), total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(comments)
      .where(eq(comments.versionId, sql.placeholder("versionId")))
      .orderBy(asc(comments.createdAt))
      .limit(sql.placeholder("first"))
      .prepare("version_first_comments"),
  ).execute({ versionId: version.id, first });
  const list = await presentMany(
    db,
    rows.map(({ total: _, ...row }) => row),
  );
  return {
    data: list.map((comment) => withCommentAbilities(reader, comment)),
    total: rows[0]?.total ?? 0,
  };
}
