/**
 * The hot authenticated reads kept per process (ADR 0016): a reader's access to a version (the comment
 * list's check), and the encoded answers of GET /api/projects and GET /api/projects/{id} per reader.
 * Each is kept under tags naming what it was read from — `project:<id>` (the project, its pages, versions,
 * people and link settings), `user:<id>` (the reader, and the owner whose plan sets limits and expiry),
 * `team:<id>` (the project's team) — in lib/announced-cache.ts, and forgotten by:
 * - every realtime announcement, from any process, committed (lib/realtime.ts): a project room's names the
 *   project; a user room's names the user and the project or team its event carries. Writes that change
 *   what these reads show announce inside their transaction (`publish`, `revokeRoom`, or
 *   `announceChanged` where no socket needs telling); a write of this process holds its tags until heard;
 * - every user change the session cache hears (ADR 0007: a user or session row changed, whichever code
 *   wrote it, including the counters triggers of ADR 0013, which move the owner's row on when projects,
 *   pages or people change), and this process's own writes' users.
 * Only granted reads are kept: a refusal is read anew each time, so gaining access shows at once. While
 * either channel is lost nothing is kept. A project's expiry ends its entries by itself.
 */
import type { RealtimeEvent } from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { Database } from "../../db/index.ts";
import { AnnouncedCache } from "../../lib/announced-cache.ts";
import { observeRealtime, type Room } from "../../lib/realtime.ts";
import type { Actor } from "../auth/session.ts";
import { sessionCacheOf } from "../auth/session-cache.ts";
import { loadVersionAccess } from "./read-access.load.ts";

/** Kept answers stay under this many bytes (least recently read go first). */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

type VersionAccess = Awaited<ReturnType<typeof loadVersionAccess>>;

export interface ReadCaches {
  /** Encoded answers of the project list and a project, per reader. */
  answers: AnnouncedCache<Buffer>;
  /** `loadVersionAccess` per reader and version. */
  versionAccess: AnnouncedCache<VersionAccess>;
}

/** What an announcement names: its room, and the project or team a user room's event carries. */
export function tagsOfAnnouncement(room: Room, event: RealtimeEvent | null): string[] {
  const tags: string[] = [room];
  if (event && "projectId" in event && typeof event.projectId === "string")
    tags.push(`project:${event.projectId}`);
  if (event && "teamId" in event && typeof event.teamId === "string") tags.push(`team:${event.teamId}`);
  return tags;
}

/** What a reader's view of a loaded project depends on. */
export function tagsOfProject(
  project: { id: string; ownerId: string; teamId: string | null },
  readerId: string,
): string[] {
  const tags = [`project:${project.id}`, `user:${readerId}`, `user:${project.ownerId}`];
  if (project.teamId) tags.push(`team:${project.teamId}`);
  return tags;
}

/** A project that expires later reads differently then (SPEC §4): its entries end at that moment. */
export function untilOf(project: { expiresAt: Date | null }, now = Date.now()): number {
  const at = project.expiresAt?.getTime();
  return at !== undefined && at > now ? at : Number.POSITIVE_INFINITY;
}

const caches = new WeakMap<Database, ReadCaches & { stop: () => void }>();

/**
 * Starts this process's caches for a database once (each plugin that reads them calls this); they stop
 * when the app closes. Without a session cache (user changes unheard) nothing is kept.
 */
export function startReadCaches(app: FastifyInstance, db: Database): ReadCaches {
  const running = caches.get(db);
  if (running) return running;
  const sessions = sessionCacheOf(db);
  const isReady = () => sessions?.isListening ?? false;
  const answers = new AnnouncedCache<Buffer>({
    maxEntries: 20_000,
    maxSize: MAX_ANSWER_BYTES,
    sizeOf: (answer) => answer.length,
    isReady,
  });
  const versionAccess = new AnnouncedCache<VersionAccess>({ maxEntries: 50_000, isReady });
  const all = [answers, versionAccess];
  const stopRealtime = observeRealtime(db, {
    sent: (room, event, id) => {
      for (const cache of all) cache.sent(tagsOfAnnouncement(room, event), id);
    },
    heard: (room, event, id) => {
      for (const cache of all) cache.heard(tagsOfAnnouncement(room, event), id);
    },
    gap: (state) => {
      for (const cache of all) cache.setListening(state === "listening");
    },
  });
  const stopUsers = sessions?.observe((userId) => {
    for (const cache of all) userId ? cache.forget(`user:${userId}`) : cache.clear();
  });
  const started = {
    answers,
    versionAccess,
    stop: () => {
      stopRealtime();
      stopUsers?.();
      caches.delete(db);
    },
  };
  caches.set(db, started);
  app.addHook("onClose", async () => started.stop());
  return started;
}

export function readCachesOf(db: Database): ReadCaches | undefined {
  return caches.get(db);
}

/** `loadVersionAccess`, kept per reader while it grants access. */
export async function loadVersionAccessCached(
  db: Database,
  actor: Actor,
  versionId: string,
): Promise<VersionAccess> {
  const cache = caches.get(db)?.versionAccess;
  const key = `${actor.user.id}\u0000${versionId}`;
  const kept = cache?.get(key);
  if (kept) return kept;
  const began = cache?.begin() ?? 0;
  const loaded = await loadVersionAccess(db, actor, versionId);
  if (loaded.access)
    cache?.keep(key, loaded, tagsOfProject(loaded.project, actor.user.id), began, untilOf(loaded.project));
  return loaded;
}

/**
 * A reader's encoded answer from the cache, or read by `compute` and kept (when `tagsOf` names what it
 * depends on; null: not kept). `compute` throws for a refusal, which is never kept.
 */
export async function cachedAnswer<T>(
  db: Database,
  key: string,
  compute: () => Promise<T>,
  tagsOf: (read: T) => { tags: string[]; until: number } | null,
  encode: (read: T) => unknown,
): Promise<Buffer> {
  const cache = caches.get(db)?.answers;
  const kept = cache?.get(key);
  if (kept) return kept;
  const began = cache?.begin() ?? 0;
  const read = await compute();
  const answer = Buffer.from(JSON.stringify(encode(read)));
  const dependsOn = tagsOf(read);
  if (dependsOn) cache?.keep(key, answer, dependsOn.tags, began, dependsOn.until);
  return answer;
}
