/**
 * A per-process cache of answers, each kept under tags naming what it was read from (`project:<id>`,
 * `user:<id>`, `team:<id>`), and forgotten as soon as an announcement names one of them (ADR 0016).
 *
 * The owner of a cache wires it to the announcements (the realtime channel, the session cache's user
 * changes): `heard` for every committed announcement, from any process; `sent` when a write of this
 * process announces inside its still-open transaction — its tags are then neither served nor kept until
 * the announcement comes back from the database (or `pendingMs` passes: it rolled back), so the writer's
 * next read, here, reads the database. A read that began before a forgetting that concerns it is answered
 * but not kept (`begin` → `keep`); while announcements may be missed (`setListening(false)`) nothing is
 * kept. Entries may also carry a time after which they are stale by themselves (`until`: a project that
 * expires). Bounded by entries and by size, least recently read first.
 */

/** A write of this process that is never heard back (rolled back) stops holding its tags after this. */
const PENDING_MS = 10_000;
/** Forgetting marks kept before everything is forgotten instead (bounds memory under many writes). */
const MAX_MARKS = 10_000;

interface Entry<V> {
  value: V;
  tags: readonly string[];
  until: number;
  size: number;
}

export interface AnnouncedCacheOptions<V> {
  maxEntries?: number;
  /** Upper bound of the sum of `sizeOf` over the entries. */
  maxSize?: number;
  sizeOf?: (value: V) => number;
  /** Whether every channel the tags depend on is heard now (besides `setListening`). */
  isReady?: () => boolean;
  pendingMs?: number;
}

export class AnnouncedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly byTag = new Map<string, Set<string>>();
  private size = 0;
  /** Ticks on every forgetting; a read begun before one that concerns it is not kept. */
  private clock = 0;
  private clearedAt = 0;
  private readonly forgottenAt = new Map<string, number>();
  /** Announcements this process sent and has not heard back: id → tags, until. */
  private readonly pending = new Map<string, { tags: readonly string[]; until: number }>();
  private listening = true;
  private readonly maxEntries: number;
  private readonly maxSize: number;
  private readonly sizeOf: (value: V) => number;
  private readonly isReady: () => boolean;
  private readonly pendingMs: number;

  constructor(options: AnnouncedCacheOptions<V> = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxSize = options.maxSize ?? Number.POSITIVE_INFINITY;
    this.sizeOf = options.sizeOf ?? (() => 1);
    this.isReady = options.isReady ?? (() => true);
    this.pendingMs = options.pendingMs ?? PENDING_MS;
  }

  /** Pass to `keep`: the moment a read began. */
  begin(): number {
    return this.clock;
  }

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.drop(key);
      return undefined;
    }
    if (this.pending.size > 0 && this.isPending(entry.tags, now)) return undefined;
    // Least recently read go first: a read moves the entry to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * Keeps what a read begun at `began` found, under the tags it depends on, unless one of them was
   * forgotten since (or is held by a write of this process). Returns whether it was kept.
   */
  keep(
    key: string,
    value: V,
    tags: readonly string[],
    began: number,
    until = Number.POSITIVE_INFINITY,
    now = Date.now(),
  ): boolean {
    if (!this.listening || !this.isReady() || this.clearedAt > began || until <= now) return false;
    for (const tag of tags) if ((this.forgottenAt.get(tag) ?? 0) > began) return false;
    if (this.pending.size > 0 && this.isPending(tags, now)) return false;
    const entry: Entry<V> = { value, tags, until, size: this.sizeOf(value) };
    if (entry.size > this.maxSize) return false;
    this.drop(key);
    this.entries.set(key, entry);
    this.size += entry.size;
    for (const tag of tags) {
      const keys = this.byTag.get(tag) ?? new Set<string>();
      keys.add(key);
      this.byTag.set(tag, keys);
    }
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.size <= this.maxSize) break;
      this.drop(oldest);
    }
    return this.entries.has(key);
  }

  /** Something named by `tag` changed (or is about to): what was read from it is read anew. */
  forget(tag: string): void {
    this.clock++;
    if (this.forgottenAt.size >= MAX_MARKS) {
      this.clear();
      return;
    }
    this.forgottenAt.set(tag, this.clock);
    for (const key of [...(this.byTag.get(tag) ?? [])]) this.drop(key);
  }

  clear(): void {
    this.clock++;
    this.clearedAt = this.clock;
    this.forgottenAt.clear();
    this.entries.clear();
    this.byTag.clear();
    this.size = 0;
  }

  /** This process announced a change of `tags` (in a transaction still open); `id` names the announcement. */
  sent(tags: readonly string[], id: string, now = Date.now()): void {
    if (tags.length === 0) return;
    this.pending.set(id, { tags, until: now + this.pendingMs });
    for (const tag of tags) this.forget(tag);
  }

  /** The database delivered an announcement (committed), from this process or another. */
  heard(tags: readonly string[], id?: string): void {
    if (id) this.pending.delete(id);
    for (const tag of tags) this.forget(tag);
  }

  /** Announcements may be missed while the connection is lost: keep nothing until it listens again. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.clear();
  }

  get count(): number {
    return this.entries.size;
  }

  private isPending(tags: readonly string[], now: number): boolean {
    let pending = false;
    for (const [id, write] of this.pending) {
      if (write.until <= now) this.pending.delete(id);
      else if (!pending && write.tags.some((tag) => tags.includes(tag))) pending = true;
    }
    return pending;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.size -= entry.size;
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}
